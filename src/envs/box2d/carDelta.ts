/**
 * Records a CarRacing episode as `carracing-delta/1` (src/protocol/carTrajectory.ts): the track
 * and the car after reset once, then per step the car and the tiles first touched in that step.
 * The sandbox's trajectory recorder asks the environment for one (`deltaRecorder()`).
 */
import { CAR_DELTA_FORMAT, hullRow, wheelRow } from '../../protocol/carTrajectory';
import type { CarRacingEnv } from './carRacing';
import { numbers } from './walkerDelta';

export class CarDeltaRecorder {
  readonly format = CAR_DELTA_FORMAT;
  /** The visited flags as the last line left them: a step line lists the tiles that changed since. */
  private known: boolean[] = [];

  constructor(private readonly env: CarRacingEnv) {}

  /** The header's world: the whole track, the car after reset and the tiles reset's first frame touched. */
  start(): unknown {
    const track = this.env.trackPolygons();
    const pose = this.env.pose();
    if (track === null || pose === null) throw new Error('CarRacing: trajectory recording started before reset()');
    this.known = [...this.env.visitedTiles()];
    return {
      track: track.track.map((p) => ({ points: [...p.points], tile: p.tile, kerb: p.kerb })),
      tileCount: track.tileCount,
      t: pose.t,
      hull: { ...pose.hull },
      wheels: pose.wheels.map((w) => ({ ...w })),
      visited: this.known.flatMap((v, tile) => (v ? [tile] : [])),
    };
  }

  /** The fields after `action`/`reward`/flags/info of the step just taken, each starting with a comma. */
  step(): string {
    const pose = this.env.pose()!;
    let line = `,"t":${pose.t},"hull":${numbers(hullRow(pose.hull))},"wheels":[${pose.wheels.map((w) => numbers(wheelRow(w))).join(',')}]`;
    const visited = this.env.visitedTiles();
    let fresh = '';
    for (let tile = 0; tile < visited.length; tile++) {
      if (visited[tile] !== true || this.known[tile] === true) continue;
      this.known[tile] = true;
      fresh += `${fresh === '' ? '' : ','}${tile}`;
    }
    if (fresh !== '') line += `,"visited":[${fresh}]`;
    return line;
  }
}
