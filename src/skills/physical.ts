/**
 * Skills of the physics families, read from each step's result and, for driving, the ego
 * vehicle: Box2D (landed between the flags, crashed, fell, reached the end of the course),
 * highway driving (avoided collisions, changed lane, reached the parking spot) and MuJoCo
 * (stayed healthy, forward distance).
 */
import type { StepResult } from '../envs/core/env';
import type { EpisodeSkills } from '../protocol/skills';
import type { SkillDeclaration, SkillFamily, SkillTracker } from './types';

/** LunarLander's flags stand at ±0.2 in the observation's x (the helipad spans two of ten terrain chunks). */
const FLAG_X = 0.2;
/** Gymnasium's Box2D tasks end a crash or a fall with exactly this reward. */
const CRASH_REWARD = -100;
/** MuJoCo: forward distance (in the model's x units) an episode must cover to count as travelling. */
export const TRAVEL_DISTANCE = 5;

const success = (id: string, label: string): SkillDeclaration => ({ id, label, kind: 'success' });

/** A tracker fed by the step results alone. */
class ResultTracker implements SkillTracker {
  private last: StepResult<unknown> | null = null;
  private crashed = false;
  private readonly flags = new Set<string>();
  private firstX: number | null = null;
  private lastX: number | null = null;
  private readonly startLane: unknown;

  constructor(private readonly finish: (t: ResultTracker) => EpisodeSkills, private readonly ego?: { laneId(): unknown }) {
    this.startLane = ego?.laneId();
  }

  step(_action: unknown, r: StepResult<unknown>): void {
    this.last = r;
    if (r.terminated && r.reward === CRASH_REWARD) this.crashed = true;
    const info = r.info;
    if (info['crashed'] === true) this.flags.add('collided');
    if (info['is_success'] === true) this.flags.add('parked');
    const x = info['x_position'];
    if (typeof x === 'number') {
      this.firstX ??= x;
      this.lastX = x;
    }
    if (this.ego && this.ego.laneId() !== this.startLane) this.flags.add('changed_lane');
  }

  get lastStep(): StepResult<unknown> | null {
    return this.last;
  }
  get crashedOut(): boolean {
    return this.crashed;
  }
  has(flag: string): boolean {
    return this.flags.has(flag);
  }
  get distance(): number | null {
    return this.firstX === null || this.lastX === null ? null : this.lastX - this.firstX;
  }

  outcomes(): EpisodeSkills {
    return this.finish(this);
  }
}

const bit = (v: boolean): number => (v ? 1 : 0);

export const box2dSkills: SkillFamily = {
  family: 'box2d/',
  skills: (_envId, family) => {
    if (family === 'box2d/lunarlander') return [success('landed_between_flags', 'landed between the flags'), success('avoided_crash', 'did not crash')];
    if (family === 'box2d/bipedalwalker') return [success('stayed_up', 'did not fall'), success('reached_end', 'reached the end of the course')];
    return [success('finished_lap', 'finished the lap')];
  },
  track: (_envId, family) =>
    new ResultTracker((t): EpisodeSkills => {
      const last = t.lastStep;
      const ended = last !== null && last.terminated && !t.crashedOut;
      if (family === 'box2d/lunarlander') {
        const o = last?.observation as ArrayLike<number> | undefined;
        const between = ended && o !== undefined && Math.abs(o[0]!) <= FLAG_X && o[6] === 1 && o[7] === 1;
        return { landed_between_flags: bit(between), avoided_crash: bit(!t.crashedOut) };
      }
      if (family === 'box2d/bipedalwalker') return { stayed_up: bit(!t.crashedOut), reached_end: bit(ended) };
      // CarRacing ends early only when every tile is visited (or the car leaves the field, reward -100).
      return { finished_lap: bit(ended) };
    }),
};

interface Driving {
  ego?: { laneIndex?: readonly unknown[] };
}

export const drivingSkills: SkillFamily = {
  family: 'highway',
  skills: (_envId, family) =>
    family === 'highway/parking'
      ? [success('avoided_collision', 'avoided collisions'), success('parked', 'reached the parking spot')]
      : [success('avoided_collision', 'avoided collisions'), success('changed_lane', 'changed lane')],
  track: (_envId, family, env) => {
    const d = env as Driving;
    const lane = family === 'highway/parking' ? undefined : { laneId: (): unknown => d.ego?.laneIndex?.[2] };
    return new ResultTracker(
      (t): EpisodeSkills => (family === 'highway/parking' ? { avoided_collision: bit(!t.has('collided')), parked: bit(t.has('parked')) } : { avoided_collision: bit(!t.has('collided')), changed_lane: bit(t.has('changed_lane')) }),
      lane,
    );
  },
};

export const mujocoSkills: SkillFamily = {
  family: 'mujoco',
  skills: () => [success('stayed_healthy', 'stayed healthy (did not fall)'), success('travelled', `moved forward ${TRAVEL_DISTANCE} units`)],
  track: () =>
    new ResultTracker((t) => {
      const d = t.distance;
      return { stayed_healthy: bit(!(t.lastStep?.terminated ?? false)), travelled: d === null ? null : bit(d >= TRAVEL_DISTANCE) };
    }),
};
