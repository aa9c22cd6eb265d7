/**
 * One environment's ranking as a horizontal bar chart in plain SVG: entries in rank order, bars
 * from zero to the score (negative returns point left), baselines hatched and labelled so they
 * read as reference points rather than competitors. Colours come from CSS classes (the CSP allows
 * no inline styles), which follow the VS Code theme.
 */
import type { EnvironmentRanking } from '../../src/protocol/leaderboard';

const SVG = 'http://www.w3.org/2000/svg';
const ROW = 22;
const LABEL_W = 220;
const VALUE_W = 90;
const WIDTH = 640;

let patternSeq = 0;

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The score as the leaderboard's text prints it: six significant digits. */
export function scoreText(score: number | null): string {
  return score === null || !Number.isFinite(score) ? 'no score' : String(Number(score.toPrecision(6)));
}

/** The bar domain: always includes zero, so a bar's length is its score. */
export function barDomain(scores: readonly (number | null)[]): [number, number] {
  const finite = scores.filter((s): s is number => s !== null && Number.isFinite(s));
  const lo = Math.min(0, ...finite);
  const hi = Math.max(0, ...finite);
  return lo === hi ? [lo, lo + 1] : [lo, hi];
}

export function rankingChart(env: EnvironmentRanking): SVGSVGElement {
  const rows = env.ranking;
  const height = rows.length * ROW + 8;
  const [lo, hi] = barDomain(rows.map((r) => r.score));
  const plotW = WIDTH - LABEL_W - VALUE_W;
  const x = (v: number): number => LABEL_W + ((v - lo) / (hi - lo)) * plotW;
  const hatch = `pf-hatch-${++patternSeq}`;
  const svg = el('svg', { viewBox: `0 0 ${WIDTH} ${height}`, width: '100%', role: 'img', class: 'ranking-chart', preserveAspectRatio: 'xMinYMin meet' });
  const pattern = el('pattern', { id: hatch, width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  pattern.append(el('rect', { width: 6, height: 6, class: 'hatch-bg' }), el('line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'hatch-line' }));
  const defs = el('defs', {});
  defs.append(pattern);
  svg.append(defs);
  const zero = x(0);
  svg.append(el('line', { x1: zero, y1: 2, x2: zero, y2: height - 4, class: 'axis' }));
  rows.forEach((r, i) => {
    const y = 4 + i * ROW;
    const g = el('g', { class: `bar-row ${r.kind}`, 'data-entry': r.entry, 'data-rank': r.rank });
    g.append(el('title', {}, `${r.rank}. ${r.entry} (${r.kind}): ${scoreText(r.score)}${r.repeats > 1 ? `, mean of ${r.repeats} runs` : ''}`));
    g.append(el('text', { x: LABEL_W - 6, y: y + ROW / 2 + 4, 'text-anchor': 'end', class: 'label' }, `${r.rank}. ${r.entry}${r.kind === 'baseline' ? ' (baseline)' : ''}`));
    if (r.score !== null && Number.isFinite(r.score)) {
      const x0 = Math.min(zero, x(r.score));
      const w = Math.max(1, Math.abs(x(r.score) - zero));
      g.append(el('rect', { x: x0, y: y + 3, width: w, height: ROW - 6, rx: 2, class: `bar ${r.kind}`, ...(r.kind === 'baseline' ? { fill: `url(#${hatch})` } : {}) }));
    }
    g.append(el('text', { x: WIDTH - VALUE_W + 6, y: y + ROW / 2 + 4, class: 'value' }, scoreText(r.score)));
    svg.append(g);
  });
  const best = rows[0];
  svg.setAttribute(
    'aria-label',
    `${env.environment}: ${rows.length} entries ranked${env.lowerIsBetter ? ' (lower is better)' : ''}; first ${best ? `${best.entry} with ${scoreText(best.score)}` : 'none'}; ` +
      `${rows.filter((r) => r.kind === 'baseline').length} baselines.`,
  );
  return svg;
}
