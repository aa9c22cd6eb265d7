/**
 * Classic-control skills, read from the observation each step (the observation is the state):
 * reaching the goal, the swing-up height, and the share of the episode spent upright.
 */
import type { StepResult } from '../envs/core/env';
import type { EpisodeSkills } from '../protocol/skills';
import type { SkillDeclaration, SkillFamily, SkillTracker } from './types';

const GOAL: SkillDeclaration = { id: 'reached_goal', label: 'reached the goal', kind: 'success' };
const UPRIGHT: SkillDeclaration = { id: 'time_upright', label: 'share of steps upright', kind: 'fraction' };
const SWING: SkillDeclaration = { id: 'swung_up', label: 'swing-up height reached', kind: 'success' };
const HALFWAY: SkillDeclaration = { id: 'half_height', label: 'reached half the goal height', kind: 'success' };
const FULL: SkillDeclaration = { id: 'full_episode', label: 'balanced the whole episode', kind: 'success' };

/** Pendulum counts as upright within ~25° of the top (cos θ > 0.9). */
const PENDULUM_UPRIGHT_COS = 0.9;
/** CartPole terminates beyond 12°; "upright" is the stricter 6°, a well-balanced pole. */
const CARTPOLE_UPRIGHT_RAD = (6 * Math.PI) / 180;
/** Acrobot's goal is a tip height of 1 (link lengths 1); half of it shows the swing is building. */
const ACROBOT_GOAL_HEIGHT = 1;
/** MountainCar's valley floor is at -0.52 and the flag at 0.5 (0.45 for the continuous one). */
const VALLEY = -0.5236;

type Vec = ArrayLike<number>;

/** A tracker over the observation vector: `upright` per step, `height` (0..1 of the goal height) as a maximum. */
class VectorTracker implements SkillTracker {
  private steps = 0;
  private upright = 0;
  private maxHeight = -Infinity;
  private terminated = false;
  private truncated = false;
  private goal = false;

  constructor(private readonly kind: Kind, first: Vec) {
    this.observe(first);
  }

  private observe(o: Vec): void {
    const k = this.kind;
    if (k.upright && k.upright(o)) this.upright++;
    if (k.height) this.maxHeight = Math.max(this.maxHeight, k.height(o));
  }

  step(_action: unknown, r: StepResult<unknown>): void {
    this.steps++;
    this.observe(r.observation as Vec);
    if (r.terminated) this.terminated = true;
    if (r.truncated) this.truncated = true;
    if (this.kind.goalOnTerminate && r.terminated) this.goal = true;
  }

  outcomes(): EpisodeSkills {
    const out: EpisodeSkills = {};
    const k = this.kind;
    if (k.goalOnTerminate) out['reached_goal'] = this.goal ? 1 : 0;
    if (k.upright) out['time_upright'] = this.steps > 0 ? this.upright / (this.steps + 1) : null;
    if (k.height) {
      if (k.skills.includes(SWING)) out['swung_up'] = this.maxHeight >= 1 ? 1 : 0;
      if (k.skills.includes(HALFWAY)) out['half_height'] = this.maxHeight >= 0.5 ? 1 : 0;
    }
    if (k.skills.includes(FULL)) out['full_episode'] = this.truncated && !this.terminated ? 1 : 0;
    return out;
  }
}

interface Kind {
  skills: readonly SkillDeclaration[];
  goalOnTerminate?: boolean;
  upright?: (o: Vec) => boolean;
  /** Height as a share of the goal height (1 = reached). */
  height?: (o: Vec) => number;
}

function mountainCar(flag: number): Kind {
  // The track is sin(3x); height relative to the valley floor, as a share of the flag's height.
  const h = (x: number): number => Math.sin(3 * x) - Math.sin(3 * VALLEY);
  return { skills: [GOAL, HALFWAY], goalOnTerminate: true, height: (o) => h(o[0]!) / h(flag) };
}

const KINDS: Record<string, Kind> = {
  'classic/cartpole': { skills: [FULL, UPRIGHT], upright: (o) => Math.abs(o[2]!) < CARTPOLE_UPRIGHT_RAD },
  'classic/pendulum': { skills: [SWING, UPRIGHT], upright: (o) => o[0]! > PENDULUM_UPRIGHT_COS, height: (o) => (o[0]! >= PENDULUM_UPRIGHT_COS ? 1 : (o[0]! + 1) / (PENDULUM_UPRIGHT_COS + 1)) },
  'classic/acrobot': {
    skills: [GOAL, HALFWAY],
    goalOnTerminate: true,
    // Observation: cos θ1, sin θ1, cos θ2, sin θ2, …; tip height −cos θ1 − cos(θ1 + θ2).
    height: (o) => (-o[0]! - (o[0]! * o[2]! - o[1]! * o[3]!)) / ACROBOT_GOAL_HEIGHT,
  },
};

function kindOf(family: string, envId: string): Kind | undefined {
  if (family === 'classic/mountaincar') return mountainCar(envId.startsWith('MountainCarContinuous') ? 0.45 : 0.5);
  return KINDS[family];
}

export const classicSkills: SkillFamily = {
  family: 'classic/',
  skills: (envId, family) => kindOf(family, envId)?.skills ?? [],
  track: (envId, family, _env, first) => {
    const kind = kindOf(family, envId);
    if (!kind) throw new Error(`no classic-control skills for ${envId} (family ${family})`);
    return new VectorTracker(kind, first as Vec);
  },
};
