/**
 * One episode's skills in the replay: each skill its environment family declares as achieved,
 * failed or not applicable (or its share, for fraction skills), and the skills that happened at a
 * step (`steps` kind: the first pickup) marked on a track of the episode's frames, where a click
 * seeks to that step. Labels and kinds come from the submission's summary (`ReplaySide.skills`);
 * without them the ids stand in.
 */
import type { EpisodeSummary } from '../../src/protocol/feedback';
import type { ReplaySide } from '../../src/protocol/webview';
import { linkButton } from '../shared/controls';
import { h } from '../shared/dom';

type Declared = NonNullable<ReplaySide['skills']>[number];

export interface SkillOutcome {
  id: string;
  label: string;
  state: 'achieved' | 'failed' | 'not applicable' | 'share' | 'count';
  /** What the list prints after the label. */
  text: string;
}

/** A skill that happened at a step: frame `frame` is the state right after it. */
export interface SkillMark {
  id: string;
  frame: number;
  label: string;
}

function declarations(episode: EpisodeSummary | null, declared: readonly Declared[] | undefined): Declared[] {
  const ids = Object.keys(episode?.skills ?? {});
  const known = new Map((declared ?? []).map((d) => [d.id, d]));
  return ids.map((id) => known.get(id) ?? { id, label: id.replace(/_/g, ' '), kind: id.startsWith('steps_') ? 'steps' : 'success' });
}

export function skillOutcomes(episode: EpisodeSummary | null, declared?: readonly Declared[]): SkillOutcome[] {
  const values = episode?.skills ?? {};
  return declarations(episode, declared).map((d): SkillOutcome => {
    const v = values[d.id];
    if (v === null || v === undefined) return { id: d.id, label: d.label, state: 'not applicable', text: 'not applicable' };
    if (d.kind === 'steps') return { id: d.id, label: d.label, state: 'count', text: String(v) };
    if (d.kind === 'fraction') return { id: d.id, label: d.label, state: 'share', text: `${Math.round(v * 100)}%` };
    return v >= 1 ? { id: d.id, label: d.label, state: 'achieved', text: 'achieved' } : { id: d.id, label: d.label, state: 'failed', text: 'failed' };
  });
}

/** "steps to the first pickup" → "first pickup". */
function markLabel(label: string): string {
  return label.replace(/^steps to (the )?/, '');
}

export function skillMarks(episode: EpisodeSummary | null, declared?: readonly Declared[]): SkillMark[] {
  const values = episode?.skills ?? {};
  return declarations(episode, declared)
    .filter((d) => d.kind === 'steps')
    .flatMap((d) => {
      const v = values[d.id];
      return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? [{ id: d.id, frame: v, label: markLabel(d.label) }] : [];
    });
}

const SYMBOL: Record<SkillOutcome['state'], string> = { achieved: '✓', failed: '✗', 'not applicable': '–', share: '◐', count: '#' };

/** The skills list and the marks track of one scene; `show(frame)` moves the track's cursor. */
export class EpisodeSkillsView {
  readonly element: HTMLElement | null;
  private readonly cursor: HTMLElement | null = null;

  constructor(outcomes: readonly SkillOutcome[], marks: readonly SkillMark[], private readonly frames: number, seek: (frame: number) => void) {
    if (outcomes.length === 0) {
      this.element = null;
      return;
    }
    const list = h('ul', { class: 'skill-list', 'aria-label': 'Skills in this episode' },
      ...outcomes.map((o) => h('li', { class: `skill ${o.state.replace(' ', '-')}`, 'data-skill': o.id, 'data-state': o.state },
        h('span', { class: 'skill-symbol', 'aria-hidden': 'true' }, SYMBOL[o.state]), `${o.label}: `, h('strong', {}, o.text))));
    let track: HTMLElement | null = null;
    if (marks.length > 0 && frames > 1) {
      this.cursor = h('div', { class: 'skill-cursor', 'aria-hidden': 'true' });
      track = h('div', { class: 'skill-track', role: 'group', 'aria-label': 'Skills on the timeline' }, this.cursor,
        ...marks.map((m) => {
          const b = linkButton(`${m.label} · step ${m.frame}`, `Go to step ${m.frame}: ${m.label}`, () => seek(m.frame));
          b.classList.add('skill-mark');
          b.dataset['frame'] = String(m.frame);
          b.dataset['skill'] = m.id;
          b.style.left = `${this.percent(m.frame)}%`;
          return b;
        }));
    }
    this.element = h('div', { class: 'episode-skills', 'data-role': 'episode-skills' }, list, track);
  }

  show(frame: number): void {
    if (this.cursor) this.cursor.style.left = `${this.percent(frame)}%`;
  }

  private percent(frame: number): number {
    return (Math.min(frame, this.frames - 1) / Math.max(1, this.frames - 1)) * 100;
  }
}
