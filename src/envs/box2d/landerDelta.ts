/**
 * Records a LunarLander episode as `lunarlander-delta/1` (src/protocol/landerTrajectory.ts): the
 * moon, the body shapes and the pose after reset once, then per step the poses, contacts, engine
 * power and the observation after the step. The sandbox's trajectory recorder asks the
 * environment for one (`deltaRecorder()`).
 */
import { LANDER_DELTA_FORMAT, type LanderPose } from '../../protocol/landerTrajectory';
import type { LunarLanderEnv } from './lunarLander';
import { numbers } from './walkerDelta';

function poseFields(p: LanderPose): string {
  return `,"bodies":[${p.bodies.map(numbers).join(',')}],"groundContact":[${p.groundContact.join(',')}],"enginePower":${numbers(p.enginePower)}`;
}

export class LanderDeltaRecorder {
  readonly format = LANDER_DELTA_FORMAT;

  constructor(private readonly env: LunarLanderEnv) {}

  /** The header's world: the moon, the body shapes, the pose after reset and the first observation. */
  start(): unknown {
    const pose = this.env.pose();
    const shapes = this.env.shapes();
    if (pose === null || shapes === null) throw new Error('LunarLander: trajectory recording started before reset()');
    const m = this.env.moon();
    return {
      world: { terrain: m.terrain.map((p) => [...p]), helipadX1: m.helipadX1, helipadX2: m.helipadX2, helipadY: m.helipadY },
      shapes: { lander: shapes.lander.map((v) => [...v]), legs: shapes.legs.map((v) => [...v]) },
      observation: Array.from(this.env.currentObservation()),
      bodies: pose.bodies.map((b) => [...b]),
      groundContact: [...pose.groundContact],
      enginePower: [...pose.enginePower],
    };
  }

  /** The fields after `action`/`reward`/flags/info of the step just taken, each starting with a comma. */
  step(): string {
    return `,"next":${numbers(this.env.currentObservation())}${poseFields(this.env.pose() as LanderPose)}`;
  }
}
