/**
 * The kinematic bicycle model every vehicle follows: a steering angle and an acceleration,
 * integrated with explicit Euler at the simulation step. A crashed vehicle stops steering and
 * brakes to a halt. After each step the vehicle's lane is the closest one to its pose.
 */
import { RoadObject } from './objects';
import type { Road } from './road';

export interface LowLevelAction {
  steering: number;
  acceleration: number;
}

export class Vehicle extends RoadObject {
  readonly kind = 'vehicle';
  static readonly MAX_SPEED = 40;
  static readonly MIN_SPEED = -40;
  maxSpeed = Vehicle.MAX_SPEED;
  minSpeed = Vehicle.MIN_SPEED;
  action: LowLevelAction = { steering: 0, acceleration: 0 };

  constructor(road: Road, position: readonly [number, number], heading = 0, speed = 0) {
    super(road, position, heading, speed);
    this.length = 5;
    this.width = 2;
  }

  /** The class name HighwayEnv would report (golden states record it). */
  get className(): string {
    return 'Vehicle';
  }

  /** Stores a low-level command to repeat until the next one (no argument keeps the last). */
  act(action?: LowLevelAction | string | null): void {
    if (action && typeof action === 'object') this.action = action;
  }

  step(dt: number): void {
    this.clipActions();
    const deltaF = this.action.steering;
    const beta = Math.atan(0.5 * Math.tan(deltaF));
    const vx = this.speed * Math.cos(this.heading + beta);
    const vy = this.speed * Math.sin(this.heading + beta);
    this.position[0] += vx * dt;
    this.position[1] += vy * dt;
    if (this.impact !== null) {
      this.position[0] += this.impact[0];
      this.position[1] += this.impact[1];
      this.crashed = true;
      this.impact = null;
    }
    this.heading += ((this.speed * Math.sin(beta)) / (this.length / 2)) * dt;
    this.speed += this.action.acceleration * dt;
    this.onStateUpdate();
  }

  protected clipActions(): void {
    if (this.crashed) {
      this.action.steering = 0;
      this.action.acceleration = -1.0 * this.speed;
    }
    if (this.speed > this.maxSpeed) this.action.acceleration = Math.min(this.action.acceleration, 1.0 * (this.maxSpeed - this.speed));
    else if (this.speed < this.minSpeed) this.action.acceleration = Math.max(this.action.acceleration, 1.0 * (this.minSpeed - this.speed));
  }

  onStateUpdate(): void {
    this.laneIndex = this.road.network.closestLaneIndex(this.position[0], this.position[1], this.heading);
    this.lane = this.road.network.getLane(this.laneIndex);
  }
}
