/**
 * Typed public parameters of an environment (`make(id, params)`): declared with defaults and
 * bounds, validated with errors that name the offending parameter.
 */
export type ParamValue = number | boolean | string;

export type ParamSpec = (
  | { type: 'number'; default: number; min?: number; max?: number; exclusiveMin?: boolean; exclusiveMax?: boolean; description: string }
  | { type: 'integer'; default: number; min?: number; max?: number; description: string }
  | { type: 'boolean'; default: boolean; description: string }
  | { type: 'enum'; default: string; values: readonly string[]; description: string }
  /** An ordered selection of distinct names from `values`, held as one comma-separated string (an array of names is accepted and joined). */
  | { type: 'list'; default: string; values: readonly string[]; description: string }
) & {
  /** Set by the runner for each episode and withheld from the policy (the arena's `opponent`): not in ctx.params, so not in env.d.ts. */
  runnerOnly?: true;
};

export type ParamSpecs = Readonly<Record<string, ParamSpec>>;
export type ParamValues = Readonly<Record<string, ParamValue>>;

export class ParamError extends Error {
  override name = 'ParamError';
  constructor(readonly envId: string, readonly param: string, message: string) {
    super(`${envId}: parameter "${param}" ${message}`);
  }
}

/** Fills defaults and validates every given value; unknown names are errors. */
export function resolveParams(envId: string, specs: ParamSpecs, given: Readonly<Record<string, unknown>> = {}): ParamValues {
  for (const name of Object.keys(given)) {
    if (!(name in specs)) {
      const known = Object.keys(specs);
      throw new ParamError(envId, name, `is unknown (known parameters: ${known.length ? known.join(', ') : 'none'})`);
    }
  }
  const out: Record<string, ParamValue> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const v = name in given ? given[name] : spec.default;
    out[name] = checkParam(envId, name, spec, v);
  }
  return out;
}

function checkParam(envId: string, name: string, spec: ParamSpec, v: unknown): ParamValue {
  const fail = (msg: string): never => {
    throw new ParamError(envId, name, msg);
  };
  switch (spec.type) {
    case 'number':
    case 'integer': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return fail(`must be a finite number, got ${JSON.stringify(v)}`);
      if (spec.type === 'integer' && !Number.isInteger(v)) return fail(`must be an integer, got ${v}`);
      const exMin = spec.type === 'number' && spec.exclusiveMin;
      const exMax = spec.type === 'number' && spec.exclusiveMax;
      if (spec.min !== undefined && (exMin ? v <= spec.min : v < spec.min)) return fail(`must be ${exMin ? '>' : '>='} ${spec.min}, got ${v}`);
      if (spec.max !== undefined && (exMax ? v >= spec.max : v > spec.max)) return fail(`must be ${exMax ? '<' : '<='} ${spec.max}, got ${v}`);
      return v;
    }
    case 'boolean':
      if (typeof v !== 'boolean') return fail(`must be true or false, got ${JSON.stringify(v)}`);
      return v;
    case 'enum':
      if (typeof v !== 'string' || !spec.values.includes(v)) return fail(`must be one of ${spec.values.join(', ')}, got ${JSON.stringify(v)}`);
      return v;
    case 'list': {
      const items = typeof v === 'string' ? v.split(',').map((x) => x.trim()) : Array.isArray(v) ? v : null;
      if (!items || items.some((x) => typeof x !== 'string')) return fail(`must be a list of names (an array or a comma-separated string), got ${JSON.stringify(v)}`);
      if (items.length === 0 || (items.length === 1 && items[0] === '')) return fail(`must name at least one of ${spec.values.join(', ')}`);
      for (const x of items as string[]) if (!spec.values.includes(x)) return fail(`has unknown name ${JSON.stringify(x)} (allowed: ${spec.values.join(', ')})`);
      const dup = (items as string[]).find((x, i) => items.indexOf(x) !== i);
      if (dup !== undefined) return fail(`names ${JSON.stringify(dup)} more than once`);
      return (items as string[]).join(',');
    }
  }
}
