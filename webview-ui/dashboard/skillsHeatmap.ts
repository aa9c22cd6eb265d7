/**
 * Skills × submissions: each cell a skill's success rate in one submission, coloured on the
 * viridis scale (perceptually even, readable with the common colour-vision deficiencies and on
 * light, dark and high-contrast themes alike), its percentage printed inside so nothing depends
 * on colour alone, and rate ± stderr and n on hover (the cell's title and aria-label). Rows are
 * the weakest skills first, by the latest submission that measured them (src/stats/skillText.ts).
 */
import './skills.css';
import type { SubmissionSummary } from '../../src/protocol/feedback';
import type { SkillRate } from '../../src/protocol/skills';
import { weakestSkills } from '../../src/stats/skillText';
import { h } from '../shared/dom';

export interface SkillMatrix {
  /** Rated skills (success and fraction kinds), weakest first. */
  skills: { id: string; label: string }[];
  /** Submissions that measured any skill, in order. */
  submissions: number[];
  /** `${skill}\n${submission}` → rate. */
  cells: Map<string, SkillRate>;
}

const key = (skill: string, submission: number): string => `${skill}\n${submission}`;

export function skillMatrix(subs: readonly SubmissionSummary[]): SkillMatrix {
  const cells = new Map<string, SkillRate>();
  const submissions: number[] = [];
  /** Each skill's rate in the latest submission that measured it, and its label. */
  const latest = new Map<string, SkillRate>();
  for (const s of [...subs].sort((a, b) => a.submission - b.submission)) {
    const rated = (s.skills ?? []).filter((r) => r.kind !== 'steps');
    if (rated.length === 0) continue;
    submissions.push(s.submission);
    for (const r of rated) {
      cells.set(key(r.id, s.submission), r);
      latest.set(r.id, r);
    }
  }
  const skills = weakestSkills([...latest.values()]).map((r) => ({ id: r.id, label: r.label }));
  return { skills, submissions, cells };
}

/** Viridis at nine stops, from 0 (weak: dark purple) to 1 (strong: yellow). */
const VIRIDIS: readonly [number, number, number][] = [
  [68, 1, 84], [72, 40, 120], [62, 73, 137], [49, 104, 142], [38, 130, 142], [31, 158, 137], [53, 183, 121], [110, 206, 88], [253, 231, 37],
];

/** The cell colour of a rate in [0, 1], and the text colour that reads on it. */
export function rateColor(rate: number): { background: string; text: string } {
  const x = Math.min(1, Math.max(0, rate)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const t = x - i;
  const [a, b] = [VIRIDIS[i]!, VIRIDIS[i + 1]!];
  const rgb = a.map((v, k) => Math.round(v + (b[k]! - v) * t)) as [number, number, number];
  const luminance = (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255;
  return { background: `rgb(${rgb.join(', ')})`, text: luminance > 0.45 ? '#000' : '#fff' };
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** "picked up a key, submission #3: 50% ± 9% (n 32)". */
export function cellText(label: string, submission: number, r: SkillRate): string {
  return `${label}, submission #${submission}: ${pct(r.mean)} ± ${pct(r.stderr)} (n ${r.count})`;
}

export class SkillsHeatmap {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;

  constructor() {
    this.body = h('div', { class: 'heatmap-scroll' });
    const legend = h('div', { class: 'heatmap-legend', 'aria-hidden': 'true' }, h('span', {}, '0%'), h('span', { class: 'heatmap-ramp' }), h('span', {}, '100%'));
    this.element = h('section', { class: 'card skills-heatmap', 'aria-label': 'Skills by submission' },
      h('div', { class: 'card-header' }, h('h2', {}, 'Skills by submission'), legend),
      this.body);
    const stops = VIRIDIS.map((c, i) => `rgb(${c.join(', ')}) ${Math.round((i / (VIRIDIS.length - 1)) * 100)}%`).join(', ');
    (legend.querySelector('.heatmap-ramp') as HTMLElement).style.background = `linear-gradient(to right, ${stops})`;
  }

  update(subs: readonly SubmissionSummary[]): void {
    const m = skillMatrix(subs);
    this.element.hidden = m.skills.length === 0;
    if (m.skills.length === 0) {
      this.body.replaceChildren();
      return;
    }
    const head = h('tr', {}, h('th', { scope: 'col', class: 'skill' }, 'Skill (weakest first)'), ...m.submissions.map((n) => h('th', { scope: 'col', class: 'num' }, `#${n}`)));
    const rows = m.skills.map((skill) =>
      h('tr', { 'data-skill': skill.id },
        h('th', { scope: 'row', class: 'skill' }, skill.label),
        ...m.submissions.map((n) => {
          const r = m.cells.get(key(skill.id, n));
          if (!r) return h('td', { class: 'missing', title: `${skill.label}, submission #${n}: not measured`, 'data-submission': n }, '—');
          const text = cellText(skill.label, n, r);
          const cell = h('td', { title: text, 'aria-label': text, 'data-submission': n, 'data-rate': r.mean }, pct(r.mean));
          const c = rateColor(r.mean);
          cell.style.background = c.background;
          cell.style.color = c.text;
          return cell;
        })));
    this.body.replaceChildren(h('table', { class: 'heatmap' }, h('thead', {}, head), h('tbody', {}, ...rows)));
  }
}
