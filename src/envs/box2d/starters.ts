/** Starter policies for the Box2D family: small, readable baselines a workspace begins from. */

export const lunarLanderStarter = `/**
 * LunarLander-v3 starter: a proportional hover-and-level controller. It aims the nose toward
 * the pad, holds a target height that shrinks as the lander centres, and only brakes the fall
 * once a leg touches. Works for the discrete and the continuous action spaces.
 * observation = [x, y, vx, vy, angle, angular velocity, left leg contact, right leg contact]
 */
export class Policy {
  private readonly continuous: boolean;

  constructor(ctx: PolicyContext) {
    this.continuous = ctx.actionSpace.type === 'Box';
  }

  act(o: Observation): Action {
    let angleTarget = o[0]! * 0.5 + o[2]! * 1.0;
    angleTarget = Math.max(-0.4, Math.min(0.4, angleTarget));
    const hoverTarget = 0.55 * Math.abs(o[0]!);
    let angleTodo = (angleTarget - o[4]!) * 0.5 - o[5]! * 1.0;
    let hoverTodo = (hoverTarget - o[1]!) * 0.5 - o[3]! * 0.5;
    if (o[6]! || o[7]!) {
      angleTodo = 0;
      hoverTodo = -o[3]! * 0.5;
    }
    let engine = 0;
    if (hoverTodo > Math.abs(angleTodo) && hoverTodo > 0.05) engine = 2;
    else if (angleTodo < -0.05) engine = 3;
    else if (angleTodo > 0.05) engine = 1;
    return this.output(engine, [Math.max(-1, Math.min(1, hoverTodo * 20 - 1)), Math.max(-1, Math.min(1, -angleTodo * 20))]);
  }

  /** One starter serves both action spaces: the environment's space picks the form. */
  private output(discrete: number, continuous: [number, number]): Action {
    return (this.continuous ? continuous : discrete) as unknown as Action;
  }
}
`;

export const bipedalWalkerStarter = `/**
 * BipedalWalker-v3 starter: a three-phase gait with joint targets.
 *   lift:  the free leg swings forward with its knee bent while the standing leg straightens;
 *   plant: once the standing hip is behind the hull, the free leg reaches down to the ground;
 *   push:  once it touches, the back leg straightens its knee to push, then the legs swap.
 * Each joint follows its target with a proportional-derivative term; both hips also level the
 * hull and both knees damp vertical bouncing.
 * observation: 0 hull angle, 1 hull angular velocity, 2 vx, 3 vy, 4/9 hip angles, 5/10 hip
 * speeds, 6/11 knee angle + 1, 7/12 knee speeds, 8/13 foot contact, 14-23 lidar.
 */
type Phase = 'lift' | 'plant' | 'push';

export class Policy {
  private phase: Phase = 'lift';
  private free = 0; // the leg that swings: 0 left, 1 right
  private standKnee = 0.1;
  private readonly cruise = 0.28; // faster than this tips the walker forward

  constructor(_ctx: PolicyContext) {}

  reset(): void {
    this.phase = 'lift';
    this.free = 0;
    this.standKnee = 0.1;
  }

  act(o: Observation): Action {
    const base = (leg: number): number => 4 + 5 * leg;
    const free = this.free;
    const stand = 1 - free;
    const hipTarget: (number | null)[] = [null, null];
    const kneeTarget: (number | null)[] = [null, null];
    if (this.phase === 'lift') {
      hipTarget[free] = 1.1;
      kneeTarget[free] = -0.6;
      this.standKnee = Math.min(0.1, this.standKnee + (o[2]! > this.cruise ? 0.06 : 0.03));
      kneeTarget[stand] = this.standKnee;
      if (o[base(stand)]! < 0.1) this.phase = 'plant';
    }
    if (this.phase === 'plant') {
      hipTarget[free] = 0.1;
      kneeTarget[free] = 0.1;
      kneeTarget[stand] = this.standKnee;
      if (o[base(free) + 4]!) {
        this.phase = 'push';
        this.standKnee = Math.min(o[base(free) + 2]!, 0.1);
      }
    }
    if (this.phase === 'push') {
      kneeTarget[free] = this.standKnee;
      kneeTarget[stand] = 1.0;
      if (o[base(stand) + 2]! > 0.88 || o[2]! > 1.2 * this.cruise) {
        this.phase = 'lift';
        this.free = stand;
      }
    }
    const action = [0, 0, 0, 0];
    for (let leg = 0; leg < 2; leg++) {
      const b = base(leg);
      let hip = hipTarget[leg] !== null ? 0.9 * (hipTarget[leg]! - o[b]!) - 0.25 * o[b + 1]! : 0;
      let knee = kneeTarget[leg] !== null ? 4.0 * (kneeTarget[leg]! - o[b + 2]!) - 0.25 * o[b + 3]! : 0;
      hip += 0.9 * o[0]! + 1.5 * o[1]!; // lean the hips against the hull's tilt
      knee -= 15.0 * o[3]!; // damp vertical bouncing
      action[2 * leg] = Math.max(-1, Math.min(1, 0.5 * hip));
      action[2 * leg + 1] = Math.max(-1, Math.min(1, 0.5 * knee));
    }
    return action;
  }
}
`;

export const carRacingStarter = `/**
 * CarRacing-v3 starter: a track follower that reads the pixels. It looks at one row of the
 * image ahead of the car, finds the grey road pixels, steers toward their centre, and keeps a
 * gentle throttle (less in bends). Works for the continuous and the discrete action spaces.
 * observation: 96×96 RGB bytes, pixel (x, y) at (y * 96 + x) * 3; the car sits near x 48, y 72.
 */
export class Policy {
  private readonly continuous: boolean;
  private readonly lookRow = 52;

  constructor(ctx: PolicyContext) {
    this.continuous = ctx.actionSpace.type === 'Box';
  }

  private isRoad(o: Observation, x: number, y: number): boolean {
    const i = (y * 96 + x) * 3;
    const r = o[i]!, g = o[i + 1]!, b = o[i + 2]!;
    // Road is grey: the three channels close together and not bright white (kerbs).
    return Math.abs(r - g) < 20 && Math.abs(g - b) < 20 && r > 60 && r < 200;
  }

  act(o: Observation): Action {
    let sum = 0;
    let count = 0;
    for (let x = 0; x < 96; x++) {
      if (this.isRoad(o, x, this.lookRow)) {
        sum += x;
        count++;
      }
    }
    const offset = count > 0 ? (sum / count - 48) / 48 : 0;
    const steer = Math.max(-1, Math.min(1, 2.5 * offset));
    const gas = Math.abs(steer) > 0.5 ? 0.05 : 0.2;
    // Discrete 2 turns left and 1 right (Gymnasium's code; its documentation names them the other way).
    const discrete = steer < -0.2 ? 2 : steer > 0.2 ? 1 : 3;
    return this.output(discrete, [steer, gas, 0]);
  }

  /** One starter serves both action spaces: the environment's space picks the form. */
  private output(discrete: number, continuous: [number, number, number]): Action {
    return (this.continuous ? continuous : discrete) as unknown as Action;
  }
}
`;
