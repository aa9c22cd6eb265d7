/**
 * The check of a training configuration's parameter overrides against a definition's knobs
 * (training.ts), as a zod schema built per definition. Apart from training.ts so the processes
 * that only make environments (sandbox workers) never load zod.
 */
import { z } from 'zod';
import type { EnvDefinition } from './definition';
import type { ParamSpec, ParamValue, ParamValues } from './params';
import { describeKnob, type TrainingCheck, type TrainingKnob } from './training';

function knobSchema(name: string, knob: TrainingKnob, spec: ParamSpec | undefined): z.ZodType<ParamValue> {
  const bounds = describeKnob(name, knob, spec);
  if ('values' in knob) return z.literal(knob.values as readonly (string | boolean)[] as readonly string[], { error: `must be ${bounds}` }) as z.ZodType<ParamValue>;
  let n = z.number({ error: `must be a number (${bounds})` });
  if (spec?.type === 'integer') n = n.int({ error: `must be an integer (${bounds})` });
  return n.min(knob.min, { error: `is outside its bounds (${bounds})` }).max(knob.max, { error: `is outside its bounds (${bounds})` });
}

/** The zod schema of a configuration's `params` for this definition (strict: undeclared names are refused). */
export function trainingParamsSchema(def: EnvDefinition): z.ZodType<Record<string, ParamValue>> {
  const shape: Record<string, z.ZodType<ParamValue>> = {};
  for (const [name, knob] of Object.entries(def.training ?? {})) shape[name] = knobSchema(name, knob, def.params[name]).optional() as z.ZodType<ParamValue>;
  return z.strictObject(shape) as unknown as z.ZodType<Record<string, ParamValue>>;
}

/**
 * Checks a configuration's parameter overrides against the definition's training schema. On
 * success, `params` are the run's parameters with the overrides applied (what practice episodes
 * make the environment with). The first problem found is the one reported.
 */
export function checkTrainingParams(def: EnvDefinition, runParams: ParamValues, overrides: Readonly<Record<string, unknown>>): TrainingCheck {
  const knobs = def.training ?? {};
  const allowed = Object.keys(knobs);
  for (const name of Object.keys(overrides)) {
    if (!(name in knobs)) {
      const list = allowed.map((k) => describeKnob(k, knobs[k]!, def.params[k]));
      return {
        ok: false,
        param: name,
        message: `${def.id}: parameter "${name}" is not one a training configuration may change (${list.length ? `it may change ${list.join('; ')}` : 'this environment declares none'})`,
      };
    }
  }
  const parsed = trainingParamsSchema(def).safeParse(overrides);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = String(issue.path[0] ?? '');
    return { ok: false, param, message: `${def.id}: parameter "${param}" ${issue.message}, got ${JSON.stringify(overrides[param])}` };
  }
  return { ok: true, params: { ...runParams, ...parsed.data } };
}
