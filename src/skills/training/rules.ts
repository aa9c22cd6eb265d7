/**
 * Per-family rules of the proposer: the order a task needs its skills in, and for a weak skill
 * the configuration that isolates it. Each knob moves from its easy end toward the run's own
 * value as the skill's rate `r` grows (`toward`), so practice gets harder as the policy improves.
 */
import type { EnvDefinition } from '../../envs/core/definition';
import type { ParamValue, ParamValues } from '../../envs/core/params';
import type { SkillRate } from '../../protocol/skills';
import { babyaiRule } from './babyaiRules';
import { toward, towardInt } from './knobs';
import { box2dRule, mujocoRule } from './physicalRules';

export { toward } from './knobs';

export interface Chosen {
  params: Record<string, ParamValue>;
  /** The rest of the sentence after "so": what the configuration does for that skill. */
  why: string;
}

export interface FamilyRule {
  order: readonly string[];
  /** Only the skills in `order` are the task's: the others are measured but never practised (BabyAI's keys lying about as distractors, say). */
  exclusive?: boolean;
  propose(skill: SkillRate, run: ParamValues): Chosen | null;
}

const num = (run: ParamValues, name: string): number => run[name] as number;

function minigridRule(def: EnvDefinition): FamilyRule {
  const knobs = def.training ?? {};
  const has = (k: string): boolean => k in knobs;
  return {
    order: ['picked_up_key', 'unlocked_door', 'opened_door', 'avoided_lava', 'picked_up_target', 'reached_goal'],
    propose(skill, run): Chosen | null {
      const r = skill.mean;
      const small = (): Record<string, ParamValue> => {
        if (has('size')) return { size: towardInt(5, num(run, 'size'), r) };
        if (has('room_size')) return { room_size: towardInt(3, num(run, 'room_size'), r), num_rows: towardInt(1, num(run, 'num_rows'), r) };
        return {};
      };
      switch (skill.id) {
        case 'picked_up_key':
          if (!has('key_placement')) return null;
          return { params: { ...small(), key_placement: 'anywhere' }, why: 'practise on a smaller layout where the key is quicker to find, growing back as pickups succeed' };
        case 'unlocked_door':
        case 'opened_door':
          if (!has('key_placement')) break;
          return {
            params: { ...small(), key_placement: r < 0.5 ? 'near_door' : 'anywhere' },
            why: r < 0.5 ? 'practise on a small layout with the key placed next to the door, so using the key on the door is all that is left' : 'practise on a smaller layout, the key anywhere again now that doors open half the time',
          };
        case 'avoided_lava':
          if (has('num_crossings')) return { params: { num_crossings: towardInt(1, num(run, 'num_crossings'), r) }, why: 'practise with fewer lava rivers, adding them back as the policy avoids lava more often' };
          if (has('size')) return { params: { size: towardInt(5, num(run, 'size'), r) }, why: 'practise on a smaller grid with a shorter lava column, growing as the policy avoids lava' };
          return null;
        case 'picked_up_target':
          if (!has('room_size')) return null;
          return { params: { ...small(), key_placement: 'near_door' }, why: 'practise with fewer, smaller rooms and the key across from the locked door, so reaching the ball is most of the task' };
        case 'reached_goal':
          if (has('num_crossings')) return { params: { num_crossings: towardInt(1, num(run, 'num_crossings'), r) }, why: 'practise with fewer rivers to cross, adding them back as the goal is reached more often' };
          if (has('maxNumRooms')) {
            const rooms = towardInt(1, num(run, 'maxNumRooms'), r);
            return { params: { minNumRooms: rooms, maxNumRooms: rooms }, why: `practise on a chain of ${rooms} room(s), lengthening it as the goal is reached more often` };
          }
          if (has('size')) return { params: { size: towardInt(5, num(run, 'size'), r), ...(has('key_placement') ? { key_placement: 'anywhere' } : {}) }, why: 'practise on a smaller grid where the goal is closer, growing it as the goal is reached more often' };
          return null;
      }
      return null;
    },
  };
}

const CLASSIC: Record<string, FamilyRule> = {
  'classic/cartpole': {
    order: ['time_upright', 'full_episode'],
    propose: (skill) => ({ params: { reset_bound: toward(0.01, 0.1, skill.mean) }, why: 'practise from narrower initial states (the pole nearer upright), widening them as it improves' }),
  },
  'classic/pendulum': {
    order: ['swung_up', 'time_upright'],
    propose(skill): Chosen | null {
      if (skill.id === 'time_upright') return { params: { x_init: toward(0.3, Math.round(Math.PI * 1000) / 1000, skill.mean), y_init: toward(0.2, 1, skill.mean) }, why: 'practise balancing from starts near the top, widening the initial angle as it improves' };
      return { params: { y_init: toward(4, 1, skill.mean) }, why: 'practise with more initial spin, which takes the pendulum higher, reducing it as swing-ups succeed' };
    },
  },
  'classic/acrobot': {
    order: ['half_height', 'reached_goal'],
    propose: (skill) => ({ params: { reset_bound: toward(0.8, 0.1, skill.mean) }, why: 'practise from wider initial swings (more energy at the start), narrowing them as it improves' }),
  },
  'classic/mountaincar': {
    order: ['half_height', 'reached_goal'],
    propose: (skill) => ({
      params: { reset_low: toward(0, -0.6, skill.mean), reset_high: toward(0.2, -0.4, skill.mean) },
      why: 'practise from starts up the right-hand slope nearer the flag, moving back to the valley as it improves',
    }),
  },
};

const DRIVING: FamilyRule = {
  order: ['avoided_collision', 'changed_lane', 'parked'],
  propose(skill, run) {
    if (!('vehicles_count' in run)) return null;
    return {
      params: { vehicles_count: towardInt(5, num(run, 'vehicles_count'), skill.mean), vehicles_density: toward(0.5, num(run, 'vehicles_density'), skill.mean) },
      why: 'practise in lighter traffic, adding vehicles back as it improves',
    };
  },
};

const NONE: FamilyRule = { order: [], propose: () => null };

export function ruleFor(def: EnvDefinition): FamilyRule {
  if (def.id.startsWith('BabyAI-')) return babyaiRule(def);
  if (def.family === 'minigrid') return minigridRule(def);
  if (def.family.startsWith('box2d/')) return box2dRule(def);
  if (def.family === 'mujoco') return mujocoRule(def);
  if (def.family in CLASSIC) return CLASSIC[def.family]!;
  if (def.family.startsWith('highway')) return DRIVING;
  return NONE;
}
