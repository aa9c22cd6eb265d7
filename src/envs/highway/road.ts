/**
 * A road: the lane network, the vehicles driving on it and static objects (obstacles, the
 * parking goal). Each simulation step every vehicle decides (`act`), then moves (`step`), then
 * every pair is checked for collisions once, in list order.
 */
import type { Lane } from './lanes';
import { norm2 } from './math';
import type { LaneIndex, RoadNetwork } from './network';
import type { RoadObject } from './objects';
import type { HighwayRandom } from './random';
import type { Vehicle } from './vehicle';

const scratch: [number, number] = [0, 0];

export class Road {
  vehicles: Vehicle[] = [];
  objects: RoadObject[] = [];

  constructor(
    readonly network: RoadNetwork,
    public rng: HighwayRandom,
  ) {}

  /**
   * Objects within `distance` of `vehicle`, nearest along its lane first (stable), at most `count`.
   * Without `seeBehind`, objects more than two vehicle lengths behind are left out; obstacles
   * always are.
   */
  closeObjectsTo(vehicle: Vehicle, distance: number, count: number | null, seeBehind: boolean, sort: boolean, vehiclesOnly: boolean): RoadObject[] {
    const near = (o: RoadObject): boolean => norm2(o.position[0] - vehicle.position[0], o.position[1] - vehicle.position[1]) < distance;
    const vehicles: RoadObject[] = this.vehicles.filter((v) => near(v) && v !== vehicle && (seeBehind || -2 * vehicle.length < vehicle.laneDistanceTo(v)));
    const obstacles = this.objects.filter((o) => near(o) && -2 * vehicle.length < vehicle.laneDistanceTo(o));
    let out = vehiclesOnly ? vehicles : [...vehicles, ...obstacles];
    if (sort) {
      const keyed = out.map((o) => ({ o, k: Math.abs(vehicle.laneDistanceTo(o)) }));
      keyed.sort((a, b) => a.k - b.k);
      out = keyed.map((e) => e.o);
    }
    if (count) out = out.slice(0, count);
    return out;
  }

  act(): void {
    for (const v of this.vehicles) v.act();
  }

  step(dt: number): void {
    const vs = this.vehicles;
    for (const v of vs) v.step(dt);
    for (let i = 0; i < vs.length; i++) {
      const v = vs[i] as Vehicle;
      for (let j = i + 1; j < vs.length; j++) v.handleCollisions(vs[j] as Vehicle, dt);
      for (const o of this.objects) v.handleCollisions(o, dt);
    }
  }

  /**
   * The nearest object ahead (longitudinal coordinate ≥ the vehicle's) and behind on a lane, among
   * vehicles and obstacles that are on that lane (1 m lateral margin); landmarks are ignored.
   */
  neighbourVehicles(vehicle: RoadObject, laneIndex: LaneIndex | null = vehicle.laneIndex): [RoadObject | null, RoadObject | null] {
    if (!laneIndex) return [null, null];
    const lane: Lane = this.network.getLane(laneIndex);
    const s = lane.localCoordinates(vehicle.position[0], vehicle.position[1], scratch)[0];
    let sFront = 0;
    let sRear = 0;
    let vFront: RoadObject | null = null;
    let vRear: RoadObject | null = null;
    const all = this.vehicles as RoadObject[];
    const total = all.length + this.objects.length;
    for (let k = 0; k < total; k++) {
      const v = k < all.length ? (all[k] as RoadObject) : (this.objects[k - all.length] as RoadObject);
      if (v === vehicle || v.kind === 'landmark') continue;
      lane.localCoordinates(v.position[0], v.position[1], scratch);
      const sv = scratch[0];
      if (!lane.onLane(sv, scratch[1], 1)) continue;
      if (s <= sv && (vFront === null || sv <= sFront)) {
        sFront = sv;
        vFront = v;
      }
      if (sv < s && (vRear === null || sv > sRear)) {
        sRear = sv;
        vRear = v;
      }
    }
    return [vFront, vRear];
  }
}
