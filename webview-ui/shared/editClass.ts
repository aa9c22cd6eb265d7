/** Edit-class presentation shared by the dashboard and diagnostics. */
import type { EditClass, SubmissionSummary } from '../../src/protocol/feedback';
import { h } from './dom';

export const EDIT_CLASSES: readonly EditClass[] = ['initial', 'identical', 'parametric', 'structural'];

export function editClassOf(s: SubmissionSummary): EditClass | 'unknown' {
  return s.edit?.class ?? 'unknown';
}

export function editBadge(s: SubmissionSummary): HTMLElement {
  const c = editClassOf(s);
  if (c === 'unknown') return h('span', { class: 'muted', title: 'Edit analysis has not run for this submission' }, '—');
  const details = s.edit?.details.slice(0, 8).join('\n');
  return h('span', { class: `badge ${c}`, title: details && details.length > 0 ? details : c }, c);
}

export function editSizeText(s: SubmissionSummary): string {
  if (s.edit === undefined) return '—';
  return `+${s.edit.linesAdded} −${s.edit.linesRemoved}`;
}
