/**
 * The proposer's rule for BabyAI. The instruction's sub-goals are the skills: a weak verb is
 * practised alone (every instruction of that verb, single ones while it is weak) where the level
 * draws random instructions; every level shrinks toward one small room with few objects, doors
 * open when opening them is not the skill, and a locked room always present when keys and locks
 * are. Each knob grows back to the run's own value as the skill's rate rises.
 */
import type { EnvDefinition } from '../../envs/core/definition';
import type { ParamValue } from '../../envs/core/params';
import { changes, listPhrase, towardKnob } from './knobs';
import type { Chosen, FamilyRule } from './rules';

const VERBS: Readonly<Record<string, string>> = { subgoal_goto: 'goto', subgoal_pickup: 'pickup', subgoal_open: 'open', subgoal_putnext: 'putnext' };

/** Which phrase each shrinking knob contributes to the sentence. */
const SHRINK: Readonly<Record<string, string>> = {
  room_size: 'smaller rooms',
  num_rows: 'fewer rooms',
  num_cols: 'fewer rooms',
  num_dists: 'fewer distractors',
  num_objs: 'fewer objects',
  objs_per_room: 'fewer objects',
};

const allows = (def: EnvDefinition, name: string, value: ParamValue): boolean => {
  const knob = def.training?.[name];
  return knob !== undefined && 'values' in knob && (knob.values as readonly ParamValue[]).includes(value);
};

export function babyaiRule(def: EnvDefinition): FamilyRule {
  return {
    // The instruction's sub-goals are the task; a key or box in the world may be a mere distractor.
    order: ['subgoal_goto', 'subgoal_open', 'subgoal_pickup', 'subgoal_putnext', 'mission_done', 'unlocked_door'],
    exclusive: true,
    propose(skill, run): Chosen | null {
      const r = skill.mean;
      const wanted: Record<string, ParamValue | undefined> = {};
      const how: string[] = [];
      const verb = VERBS[skill.id];
      if (verb && allows(def, 'action_kinds', verb)) wanted['action_kinds'] = verb;
      if (r < 0.5 && allows(def, 'instr_kinds', 'action')) wanted['instr_kinds'] = 'action';
      for (const name of Object.keys(SHRINK)) {
        // Opening doors needs two rooms at least.
        const easy = name === 'num_cols' && verb === 'open' ? 2 : 'min';
        wanted[name] = towardKnob(def, run, name, easy, r);
      }
      const rooms = ((wanted['num_rows'] ?? run['num_rows'] ?? 1) as number) * ((wanted['num_cols'] ?? run['num_cols'] ?? 1) as number);
      if (r < 0.5) {
        if (allows(def, 'doors_open', true) && verb !== 'open' && rooms > 1) wanted['doors_open'] = true;
        if (allows(def, 'distractors', false)) wanted['distractors'] = false;
      }
      wanted['locked_room_prob'] = skill.id === 'unlocked_door' ? towardKnob(def, run, 'locked_room_prob', 'max', 0) : towardKnob(def, run, 'locked_room_prob', 'min', r);
      const params = changes(run, wanted);
      if (Object.keys(params).length === 0) return null;
      const single = params['instr_kinds'] === 'action';
      if (params['action_kinds'] !== undefined) how.push(single ? `single "${verb}" instructions` : `instructions that are all "${verb}"`);
      else if (single) how.push('single instructions');
      const shrunk = [...new Set(Object.keys(SHRINK).filter((k) => k in params).map((k) => SHRINK[k]!))];
      if (shrunk.length) how.push(listPhrase(shrunk));
      if (params['doors_open'] === true) how.push('every door open');
      if (params['distractors'] === false) how.push('no distractors');
      if (params['locked_room_prob'] !== undefined) how.push(skill.id === 'unlocked_door' ? 'a locked room in every world' : 'fewer locked rooms in the way');
      return { params, why: `practise with ${listPhrase(how)}, growing back to the level's own as the rate rises` };
    },
  };
}
