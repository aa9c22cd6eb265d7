/**
 * The road network: a directed graph whose edges (from node → to node) hold one or more parallel
 * lanes. Lanes are addressed by [from, to, id]. Iteration order is insertion order everywhere,
 * as in HighwayEnv's dicts, because ties (closest lane, next road) resolve to the first found.
 */
import { Lane, LineType, StraightLane, DEFAULT_LANE_WIDTH } from './lanes';
import type { HighwayRandom } from './random';

export type LaneIndex = readonly [string, string, number];
/** A route step; a null id means "whichever lane of that road". */
export type RouteStep = readonly [string, string, number | null];
export type Route = RouteStep[];

export function sameLane(a: LaneIndex | RouteStep, b: LaneIndex | RouteStep): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

export function sameRoad(a: LaneIndex | RouteStep, b: LaneIndex | RouteStep): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

export class RoadNetwork {
  readonly graph = new Map<string, Map<string, Lane[]>>();

  addLane(from: string, to: string, lane: Lane): void {
    let tos = this.graph.get(from);
    if (!tos) this.graph.set(from, (tos = new Map()));
    let lanes = tos.get(to);
    if (!lanes) tos.set(to, (lanes = []));
    lanes.push(lane);
  }

  lanesOf(from: string, to: string): Lane[] {
    const lanes = this.graph.get(from)?.get(to);
    if (!lanes) throw new RangeError(`no road ${from} → ${to} in the network`);
    return lanes;
  }

  getLane(index: LaneIndex | RouteStep): Lane {
    const lanes = this.lanesOf(index[0], index[1]);
    const id = index[2] === null && lanes.length === 1 ? 0 : index[2];
    const lane = id === null ? undefined : lanes[id];
    if (!lane) throw new RangeError(`no lane ${JSON.stringify(index)} in the network`);
    return lane;
  }

  /** The lane nearest to a pose (L1 distance plus heading mismatch); the first one on ties. */
  closestLaneIndex(x: number, y: number, heading: number | null): LaneIndex {
    let bestFrom: string | null = null;
    let bestTo = '';
    let bestId = 0;
    let bestDistance = Infinity;
    for (const [from, tos] of this.graph) {
      for (const [to, lanes] of tos) {
        for (let id = 0; id < lanes.length; id++) {
          const d = (lanes[id] as Lane).distanceWithHeading(x, y, heading);
          // NumPy's argmin: first minimum, and a NaN wins.
          if (bestFrom === null || d < bestDistance || (Number.isNaN(d) && !Number.isNaN(bestDistance))) {
            bestFrom = from;
            bestTo = to;
            bestId = id;
            bestDistance = d;
          }
        }
      }
    }
    if (bestFrom === null) throw new RangeError('the road network has no lanes');
    return [bestFrom, bestTo, bestId];
  }

  /**
   * The lane to follow once the current one ends: the route's next road when the route continues
   * from here (its first step is dropped once driven), otherwise the next road whose matching lane
   * is closest to the projected position. Same lane id when both roads have as many lanes.
   * `route` is consumed in place, as HighwayEnv's is.
   */
  nextLane(current: LaneIndex, route: Route | null, x: number, y: number): LaneIndex {
    const [from, to, id] = current;
    let nextTo: string | null = null;
    let nextId: number | null = null;
    if (route && route.length > 0) {
      if (sameRoad(route[0] as RouteStep, current)) route.shift();
      if (route.length > 0 && (route[0] as RouteStep)[0] === to) {
        nextTo = (route[0] as RouteStep)[1];
        nextId = (route[0] as RouteStep)[2];
      }
    }
    const lane = this.getLane(current);
    const [s] = lane.localCoordinates(x, y);
    const [px, py] = lane.position(s, 0);
    if (!nextTo) {
      const nexts = this.graph.get(to);
      if (!nexts) return current;
      let best: [string, number, number] | null = null;
      for (const candidate of nexts.keys()) {
        const [cid, dist] = this.nextLaneGivenNextRoad(from, to, id, candidate, nextId, px, py);
        if (best === null || dist < best[2]) best = [candidate, cid, dist];
      }
      if (!best) return current;
      return [to, best[0], best[1]];
    }
    const [cid] = this.nextLaneGivenNextRoad(from, to, id, nextTo, nextId, px, py);
    return [to, nextTo, cid];
  }

  private nextLaneGivenNextRoad(from: string, to: string, id: number, nextTo: string, nextId: number | null, x: number, y: number): [number, number] {
    const nextLanes = this.lanesOf(to, nextTo);
    let chosen = nextId;
    if (this.lanesOf(from, to).length === nextLanes.length) {
      if (chosen === null) chosen = id;
    } else {
      let bestD = Infinity;
      chosen = 0;
      for (let l = 0; l < nextLanes.length; l++) {
        const d = (nextLanes[l] as Lane).distance(x, y);
        if (d < bestD) {
          bestD = d;
          chosen = l;
        }
      }
    }
    return [chosen, this.getLane([to, nextTo, chosen]).distance(x, y)];
  }

  /** Breadth-first shortest path of node names, visiting neighbours in sorted order; [] when none. */
  shortestPath(start: string, goal: string): string[] {
    const queue: [string, string[]][] = [[start, [start]]];
    while (queue.length > 0) {
      const [node, path] = queue.shift() as [string, string[]];
      const nexts = this.graph.get(node);
      if (!nexts) return [];
      const candidates = [...nexts.keys()].filter((k) => !path.includes(k)).sort();
      for (const next of candidates) {
        if (next === goal) return [...path, next];
        if (this.graph.has(next)) queue.push([next, [...path, next]]);
      }
    }
    return [];
  }

  /**
   * Pose at a longitudinal distance along a route, starting on its first lane (a route step
   * without a lane id takes the current lane's id when that road has it, else lane 0).
   */
  positionHeadingAlongRoute(route: readonly RouteStep[], longitudinal: number, lateral: number, current: LaneIndex): [number, number, number] {
    const head = (r: readonly RouteStep[]): LaneIndex => {
      const step = r[0] as RouteStep;
      if (step[2] !== null) return [step[0], step[1], step[2]];
      const id = current[2] < this.lanesOf(current[0], current[1]).length ? current[2] : 0;
      return [step[0], step[1], id];
    };
    let r = route;
    let index = head(r);
    while (r.length > 1 && longitudinal > this.getLane(index).length) {
      longitudinal -= this.getLane(index).length;
      r = r.slice(1);
      index = head(r);
    }
    const lane = this.getLane(index);
    const [x, y] = lane.position(longitudinal, lateral);
    return [x, y, lane.headingAt(longitudinal)];
  }

  allSideLanes(index: LaneIndex): LaneIndex[] {
    return this.lanesOf(index[0], index[1]).map((_, i) => [index[0], index[1], i] as const);
  }

  sideLanes(index: LaneIndex): LaneIndex[] {
    const [from, to, id] = index;
    const out: LaneIndex[] = [];
    if (id > 0) out.push([from, to, id - 1]);
    if (id < this.lanesOf(from, to).length - 1) out.push([from, to, id + 1]);
    return out;
  }

  /** Every lane with its index, in insertion order (for drawing). */
  lanes(): { index: LaneIndex; lane: Lane }[] {
    const out: { index: LaneIndex; lane: Lane }[] = [];
    for (const [from, tos] of this.graph) for (const [to, lanes] of tos) lanes.forEach((lane, id) => out.push({ index: [from, to, id], lane }));
    return out;
  }

  /** Parallel straight lanes from x = start to start + length, lane i at y = 4·i. */
  static straight(lanes: number, start = 0, length = 10000, speedLimit = 30, nodes: readonly [string, string] = ['0', '1'], net = new RoadNetwork()): RoadNetwork {
    for (let lane = 0; lane < lanes; lane++) {
      const y = lane * DEFAULT_LANE_WIDTH;
      net.addLane(
        nodes[0],
        nodes[1],
        new StraightLane([start, y], [start + length, y], {
          lineTypes: [lane === 0 ? LineType.ContinuousLine : LineType.Striped, lane === lanes - 1 ? LineType.ContinuousLine : LineType.None],
          speedLimit,
        }),
      );
    }
    return net;
  }

  /** A random lane index, drawing from node, then road, then lane id, as HighwayEnv does. */
  randomLaneIndex(rng: HighwayRandom): LaneIndex {
    const from = rng.choice([...this.graph.keys()]);
    const to = rng.choice([...this.lanesOfFrom(from).keys()]);
    const id = rng.integers(0, this.lanesOf(from, to).length);
    return [from, to, id];
  }

  private lanesOfFrom(from: string): Map<string, Lane[]> {
    const tos = this.graph.get(from);
    if (!tos) throw new RangeError(`no node ${from} in the network`);
    return tos;
  }
}
