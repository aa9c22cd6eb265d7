/**
 * The uniform random policy: samples every action from the action space the policy context
 * describes, with the realm's seeded `Math.random`, so its episodes are reproducible. It is the
 * `random` suite agent and the report's uniform-random baseline.
 */
export const RANDOM_POLICY_SOURCE = `// Uniform random actions from ctx.actionSpace (Math.random is seeded per episode).
type Space = PolicyContext['actionSpace'];

function bound(b: number | 'inf' | '-inf'): number {
  return b === 'inf' ? Infinity : b === '-inf' ? -Infinity : b;
}

function normal(): number {
  return Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
}

// Gymnasium's Box.sample: uniform where both bounds are finite, shifted exponential where one is, normal where none is.
function sampleScalar(low: number, high: number, integer: boolean): number {
  let x: number;
  if (Number.isFinite(low) && Number.isFinite(high)) x = integer ? low + Math.floor(Math.random() * (high - low + 1)) : low + Math.random() * (high - low);
  else if (Number.isFinite(low)) x = low - Math.log(1 - Math.random());
  else if (Number.isFinite(high)) x = high + Math.log(1 - Math.random());
  else x = normal();
  return integer ? Math.round(x) : x;
}

function sample(space: Space): unknown {
  switch (space.type) {
    case 'Discrete':
      return space.start + Math.floor(Math.random() * space.n);
    case 'Box': {
      const size = space.shape.reduce((a: number, b: number) => a * b, 1);
      const out = new Float64Array(size);
      const integer = !space.dtype.startsWith('float');
      for (let i = 0; i < size; i++) out[i] = sampleScalar(bound(space.low[i]!), bound(space.high[i]!), integer);
      return out;
    }
    case 'MultiDiscrete':
      return space.nvec.map((n: number) => Math.floor(Math.random() * n));
    case 'MultiBinary':
      return Array.from({ length: space.n }, () => (Math.random() < 0.5 ? 0 : 1));
    case 'Dict':
      return Object.fromEntries(Object.entries(space.spaces).map(([k, s]) => [k, sample(s as Space)]));
    case 'Tuple':
      return space.spaces.map((s: Space) => sample(s));
    case 'Text':
      return '';
  }
}

export class Policy {
  private readonly space: Space;
  constructor(ctx: PolicyContext) {
    this.space = ctx.actionSpace;
  }
  act(_observation: Observation): Action {
    return sample(this.space) as Action;
  }
}
`;
