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
/** Reacher: the fingertip within this distance (m) of the target at the end; the two spheres touch at about 0.019. */
export const REACH_DISTANCE = 0.02;

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
    // Fetch reports success as 1 or 0 at every step; the last step's verdict is the episode's.
    if (typeof info['is_success'] === 'number') {
      if (info['is_success'] === 1) this.flags.add('at_goal');
      else this.flags.delete('at_goal');
    }
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

/**
 * Locomotion and balance: stayed healthy and forward distance. The arms have goals instead:
 * Reacher's fingertip on the target at the end, Fetch's goal within its distance threshold at
 * the end (Gymnasium-Robotics' `is_success`).
 */
export const mujocoSkills: SkillFamily = {
  family: 'mujoco',
  skills: (envId) => {
    if (envId.startsWith('Fetch')) return [success('reached_goal', 'had the goal within the distance threshold at the end')];
    if (envId.startsWith('Reacher')) return [success('reached_target', `ended with the fingertip within ${REACH_DISTANCE * 100} cm of the target`)];
    return [success('stayed_healthy', 'stayed healthy (did not fall)'), success('travelled', `moved forward ${TRAVEL_DISTANCE} units`)];
  },
  track: (envId) =>
    new ResultTracker((t): EpisodeSkills => {
      if (envId.startsWith('Fetch')) return { reached_goal: bit(t.has('at_goal')) };
      if (envId.startsWith('Reacher')) {
        // The observation's last two entries are fingertip − target in the plane.
        const o = t.lastStep?.observation as ArrayLike<number> | undefined;
        return { reached_target: o === undefined ? null : bit(Math.hypot(o[8]!, o[9]!) <= REACH_DISTANCE) };
      }
      const d = t.distance;
      return { stayed_healthy: bit(!(t.lastStep?.terminated ?? false)), travelled: d === null ? null : bit(d >= TRAVEL_DISTANCE) };
    }),
};
