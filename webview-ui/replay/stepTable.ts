/**
 * Every recorded step of the replayed episode(s) as a table: what the policy observed at time t,
 * the action it chose (by name when the environment names its actions), the reward that followed
 * and the return after it. The row of the frame on screen is marked; a row click seeks to it.
 */
import { DataTable } from '../shared/dataTable';
import { h } from '../shared/dom';
import type { HostBridge } from '../shared/hostBridge';
import type { ScoreFormat } from '../../src/stats/scoreFormat';
import type { PanelState } from '../../src/protocol/webview';
import { actionText, formatValue, type Timeline } from './timeline';

export interface StepRow {
  submission: number;
  /** Time t: the row describes frame t and the step taken from it. */
  t: number;
  observation: unknown;
  action: unknown;
  reward: number;
  returnAfter: number;
  end: string;
  /** Skills that happened at this act (the first pickup), by label. */
  skill: string;
}

export function stepRows(sides: readonly Timeline[]): StepRow[] {
  const rows: StepRow[] = [];
  for (const s of sides) {
    s.steps.forEach((st, t) => {
      const end = st.terminated ? 'terminated' : st.truncated ? 'truncated' : t === s.steps.length - 1 && s.status !== null && s.status !== 'ok' ? s.status : '';
      // A mark at frame t+1 is the state right after act t+1, the act of this row.
      const skill = s.skillMarks.filter((m) => m.frame === t + 1).map((m) => m.label).join(', ');
      rows.push({ submission: s.submission, t, observation: st.observation, action: st.action, reward: st.reward, returnAfter: s.returns[t + 1] ?? 0, end, skill });
    });
  }
  return rows;
}

export function rowKey(submission: number, t: number): string {
  return `${submission}:${t}`;
}

export function createStepTable(bridge: HostBridge<PanelState>, o: { names: () => readonly string[] | undefined; fmt: () => ScoreFormat; seek: (t: number) => void }): DataTable<StepRow> {
  const table = new DataTable<StepRow>(bridge, {
    caption: 'Steps',
    rowKey: (r) => rowKey(r.submission, r.t),
    onActivate: (r) => o.seek(r.t),
    activateHint: 'Enter: show this step',
    emptyText: 'No steps recorded.',
    rowClass: (r) => (r.end !== '' && r.end !== 'terminated' && r.end !== 'truncated' ? 'failed' : undefined),
    toJson: (rows) => rows,
    columns: [
      { key: 'submission', label: 'Submission', numeric: true, value: (r) => r.submission, render: (r) => `#${r.submission}` },
      // Numbered from 1 like every message ("act() threw at step 10"): row t is the state after t steps and the act() of step t+1.
      // Labelled "Act", not "Step": the readout and the scrubber count states (step 0 is right after reset), this column counts act() calls.
      { key: 't', label: 'Act', numeric: true, value: (r) => r.t, render: (r) => String(r.t + 1), hint: 'The policy’s nth act() call, made in the state after n−1 steps (shown as step n−1 above); error messages number steps the same way' },
      { key: 'observation', label: 'Observation', wrap: true, value: (r) => JSON.stringify(r.observation), render: (r) => h('span', { class: 'mono' }, formatValue(r.observation)) },
      { key: 'action', label: 'Action', value: (r) => actionText(r.action, o.names()), render: (r) => h('span', { class: 'mono', title: formatValue(r.action) }, actionText(r.action, o.names())) },
      { key: 'reward', label: 'Reward', numeric: true, value: (r) => r.reward, render: (r) => formatValue(r.reward) },
      { key: 'return', label: 'Return after', numeric: true, value: (r) => r.returnAfter, render: (r) => o.fmt().score(r.returnAfter) },
      { key: 'end', label: 'End', value: (r) => r.end, render: (r) => (r.end === '' ? '' : h('span', { class: r.end === 'terminated' || r.end === 'truncated' ? 'muted' : 'status-failed' }, r.end)) },
      { key: 'skill', label: 'Skill', value: (r) => r.skill, render: (r) => (r.skill === '' ? '' : h('span', { class: 'skill-at-step' }, r.skill)), hint: 'Skills that happened at this act (the first pickup)' },
    ],
  });
  table.setSort('t', 'asc');
  return table;
}
