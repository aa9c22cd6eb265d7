/**
 * Training configurations (EnvGen): which of an environment's parameters a practice submit may
 * change, and within which bounds. A definition declares them as `training`; a configuration
 * is checked (trainingCheck.ts) before anything runs, so a refused one names the parameter and its
 * bounds and costs nothing. Validation and assessment never see a configuration: they use the
 * run's own parameters.
 */
import type { EnvDefinition } from './definition';
import type { ParamSpec, ParamValues } from './params';

/**
 * Bounds a training configuration must stay within, for one declared parameter (inclusive): a
 * range for a number, the allowed values for an enum or a boolean (a boolean knob may allow
 * only one of them).
 */
export type TrainingKnob =
  | { readonly min: number; readonly max: number; readonly note?: string }
  | { readonly values: readonly string[] | readonly boolean[]; readonly note?: string };

/** Parameter name → bounds. Every name must be one of the definition's `params`. */
export type TrainingSchema = Readonly<Record<string, TrainingKnob>>;

export type TrainingCheck = { ok: true; params: ParamValues } | { ok: false; param: string; message: string };

/** "size: integer 5..16" or "key_placement: one of anywhere, near_door, far_from_door". */
export function describeKnob(name: string, knob: TrainingKnob, spec: ParamSpec | undefined): string {
  if ('values' in knob) return `${name}: one of ${knob.values.join(', ')}`;
  return `${name}: ${spec?.type === 'integer' ? 'integer' : 'number'} ${knob.min}..${knob.max}`;
}

/** Every knob of the definition, one phrase each (empty when it declares none). */
export function describeTraining(def: EnvDefinition): string[] {
  return Object.entries(def.training ?? {}).map(([name, knob]) => describeKnob(name, knob, def.params[name]));
}

/** As describeTraining, each followed by what the parameter means (for AGENTS.md): "size: integer 5..16 — Grid side, walls included". */
export function explainTraining(def: EnvDefinition): string[] {
  return Object.entries(def.training ?? {}).map(([name, knob]) => {
    const spec = def.params[name];
    return `${describeKnob(name, knob, spec)}${spec ? ` — ${spec.description}` : ''}`;
  });
}

/** Registration-time check: every knob names a declared parameter, inside that parameter's own bounds. */
export function trainingSchemaProblem(def: EnvDefinition): string | undefined {
  for (const [name, knob] of Object.entries(def.training ?? {})) {
    const spec = def.params[name];
    if (!spec) return `training knob "${name}" is not a declared parameter`;
    if ('values' in knob) {
      const takes = (v: string | boolean): boolean => (spec.type === 'enum' ? typeof v === 'string' && spec.values.includes(v) : spec.type === 'boolean' && typeof v === 'boolean');
      if (knob.values.length === 0 || !knob.values.every(takes)) return `training knob "${name}" lists values the parameter does not take`;
    } else {
      if (spec.type !== 'number' && spec.type !== 'integer') return `training knob "${name}" has numeric bounds on a ${spec.type} parameter`;
      if (!(knob.min <= knob.max) || (spec.min !== undefined && knob.min < spec.min) || (spec.max !== undefined && knob.max > spec.max)) return `training knob "${name}" bounds ${knob.min}..${knob.max} are not inside the parameter's`;
    }
  }
  return undefined;
}
