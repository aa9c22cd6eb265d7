/**
 * The model-free proposer (EnvGen's loop without a language model): from a submission's skill
 * rates it picks the skill to practise and writes the training configuration that isolates it,
 * easy while the skill is weak and closer to the run's own environment as it improves. A pure
 * function of the environment, the run's parameters and the rates, so the same inputs always
 * give the same configuration and sentence.
 */
import type { EnvDefinition } from '../../envs/core/definition';
import type { ParamValues } from '../../envs/core/params';
import { checkTrainingParams } from '../../envs/core/trainingCheck';
import type { SkillRate } from '../../protocol/skills';
import type { TrainingConfig } from '../../protocol/training';
import { weakestSkills } from '../../stats/skillText';
import { ruleFor } from './rules';

/** A skill at or above this rate is not practised while a weaker one in the task's order is below it. */
export const STRONG = 0.8;

export interface Proposal {
  /** The configuration to write to a file and submit with `--config`. */
  config: TrainingConfig;
  /** The skill it practises, or null when every skill is strong (then: the unmodified environment). */
  skill: SkillRate | null;
  /** One sentence: why this configuration. */
  reason: string;
}

export class ProposalError extends Error {
  override name = 'ProposalError';
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;

/**
 * The skill to practise: the first, in the order the task needs them (the key before the door,
 * the door before the goal), whose rate is below STRONG; else none. Skills the family does not
 * order come after, weakest first.
 */
export function focusSkill(rates: readonly SkillRate[], order: readonly string[]): SkillRate | null {
  const rated = weakestSkills(rates);
  const rank = (id: string): number => {
    const i = order.indexOf(id);
    return i < 0 ? order.length : i;
  };
  const weak = rated.filter((r) => r.mean < STRONG);
  if (weak.length === 0) return null;
  // A stable sort on the task order keeps the weakest-first order among unordered skills.
  return [...weak].sort((a, b) => rank(a.id) - rank(b.id))[0]!;
}

export function proposeConfig(def: EnvDefinition, runParams: ParamValues, rates: readonly SkillRate[] | undefined): Proposal {
  if (!def.training || Object.keys(def.training).length === 0) throw new ProposalError(`${def.id} declares no training configuration parameters, so there is nothing to propose`);
  if (!rates || rates.filter((r) => r.kind !== 'steps').length === 0) throw new ProposalError(`the submission has no skill rates for ${def.id}; the proposer works from them`);
  const rule = ruleFor(def);
  const skill = focusSkill(rule.exclusive ? rates.filter((r) => rule.order.includes(r.id)) : rates, rule.order);
  const base = { env: def.id };
  if (!skill) {
    const reason = `Every skill is at ${pct(STRONG)} or better, so practise on the unmodified environment (the run's own parameters) to find the cases that still fail.`;
    return { config: { ...base, params: {}, reason }, skill: null, reason };
  }
  const chosen = rule.propose(skill, runParams);
  const params = chosen?.params ?? {};
  // A rule never leaves the declared bounds; this keeps a future rule honest.
  const checked = checkTrainingParams(def, runParams, params);
  if (!checked.ok) throw new ProposalError(`internal: the proposer made a configuration its environment refuses: ${checked.message}`);
  const why = chosen ? chosen.why : 'no configuration isolates it here, so practise it on the unmodified environment';
  const reason = `"${skill.label}" is the weakest skill the task needs first (${pct(skill.mean)} of episodes), so ${why}.`;
  return { config: { ...base, params, skill: skill.id, reason }, skill, reason };
}
