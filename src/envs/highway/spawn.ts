/**
 * Spawning traffic behind the last vehicle, as HighwayEnv's `create_random` does: a random road
 * and lane (unless given), a random speed (unless given) in [0.7, 0.8] × the lane's limit, and a
 * gap proportional to 12 m + 1 s × speed, shrunk on wider roads, times a random factor in
 * [0.9, 1.1].
 */
import type { LaneIndex } from './network';
import type { Road } from './road';

export interface SpawnPoint {
  position: [number, number];
  heading: number;
  speed: number;
}

export function randomSpawn(road: Road, opts: { speed?: number; laneId?: number | null; spacing?: number } = {}): SpawnPoint {
  const rng = road.rng;
  const net = road.network;
  const from = rng.choice([...net.graph.keys()]);
  const to = rng.choice([...(net.graph.get(from) as Map<string, unknown>).keys()]);
  const count = net.lanesOf(from, to).length;
  const id = opts.laneId ?? rng.choice(Array.from({ length: count }, (_, i) => i));
  const index: LaneIndex = [from, to, id];
  const lane = net.getLane(index);
  const speed = opts.speed ?? rng.uniform(0.7 * lane.speedLimit, 0.8 * lane.speedLimit);
  const defaultSpacing = 12 + 1.0 * speed;
  const offset = (opts.spacing ?? 1) * defaultSpacing * Math.exp((-5 / 40) * count);
  let x0 = road.vehicles.length > 0 ? Math.max(...road.vehicles.map((v) => lane.localCoordinates(v.position[0], v.position[1])[0])) : 3 * offset;
  x0 += offset * rng.uniform(0.9, 1.1);
  return { position: lane.position(x0, 0), heading: lane.headingAt(x0), speed };
}
