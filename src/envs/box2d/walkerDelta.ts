/**
 * Records a BipedalWalker episode as `bipedalwalker-delta/1` (src/protocol/walkerTrajectory.ts):
 * the generated ground, the body shapes and the pose after reset once, then per step the body
 * poses, contacts, lidar and the observation after the step. The sandbox's trajectory recorder asks the environment for one (`deltaRecorder()`).
 */
import { WALKER_DELTA_FORMAT, type WalkerPose } from '../../protocol/walkerTrajectory';
import type { BipedalWalkerEnv } from './bipedalWalker';

/** JSON of a number array as JSON.stringify writes it, without building an array first. */
export function numbers(a: ArrayLike<number>): string {
  let s = '[';
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    s += `${i === 0 ? '' : ','}${Number.isFinite(x) ? x : 'null'}`;
  }
  return `${s}]`;
}

function poseFields(p: WalkerPose): string {
  return `,"bodies":[${p.bodies.map(numbers).join(',')}],"groundContact":[${p.groundContact.join(',')}],"lidar":${numbers(p.lidar)}`;
}

export class WalkerDeltaRecorder {
  readonly format = WALKER_DELTA_FORMAT;

  constructor(private readonly env: BipedalWalkerEnv) {}

  /** The header's world: the ground, the pose after reset and the first observation. */
  start(): unknown {
    const pose = this.env.pose();
    const g = this.env.ground();
    if (pose === null || g === null) throw new Error('BipedalWalker: trajectory recording started before reset()');
    return {
      terrainX: [...g.terrainX],
      terrainY: [...g.terrainY],
      obstacles: g.obstacles.map((p) => p.map((pt) => [...pt])),
      lidarRange: g.lidarRange,
      shapes: g.shapes.map((v) => [...v]),
      observation: Array.from(this.env.currentObservation()),
      bodies: pose.bodies.map((b) => [...b]),
      groundContact: [...pose.groundContact],
      lidar: [...pose.lidar],
    };
  }

  /** The fields after `action`/`reward`/flags/info of the step just taken, each starting with a comma. */
  step(): string {
    const pose = this.env.pose() as WalkerPose;
    return `,"next":${numbers(this.env.currentObservation())}${poseFields(pose)}`;
  }
}
