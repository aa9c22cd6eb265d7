/** A space description in Gymnasium's notation, for messages (`Discrete(2)`, `Box(-2, 2, (1,), float32)`). */
import type { SpaceDescription } from '../../protocol/spaces';

export function formatSpace(d: SpaceDescription): string {
  switch (d.type) {
    case 'Box': {
      const lo = d.low.every((v) => v === d.low[0]) ? fmt(d.low[0]) : `[${d.low.map(fmt).join(', ')}]`;
      const hi = d.high.every((v) => v === d.high[0]) ? fmt(d.high[0]) : `[${d.high.map(fmt).join(', ')}]`;
      return `Box(${lo}, ${hi}, (${d.shape.join(', ')}${d.shape.length === 1 ? ',' : ''}), ${d.dtype})`;
    }
    case 'Discrete':
      return d.start === 0 ? `Discrete(${d.n})` : `Discrete(${d.n}, start=${d.start})`;
    case 'MultiDiscrete':
      return `MultiDiscrete([${d.nvec.join(', ')}])`;
    case 'MultiBinary':
      return `MultiBinary(${d.n})`;
    case 'Text':
      return `Text(${d.minLength}..${d.maxLength})`;
    case 'Dict':
      return `Dict(${Object.entries(d.spaces).map(([k, s]) => `${k}: ${formatSpace(s)}`).join(', ')})`;
    case 'Tuple':
      return `Tuple(${d.spaces.map(formatSpace).join(', ')})`;
  }
}

function fmt(v: number | string | undefined): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(8)));
  return String(v);
}
