/** Edit-class presentation shared by the dashboard and diagnostics. */
import type { EditClass, SubmissionSummary } from '../../src/protocol/feedback';
import { h } from './dom';
import { editClassCssColor } from './theme';

export const EDIT_CLASSES: readonly EditClass[] = ['initial', 'identical', 'parametric', 'structural'];

export function editClassOf(s: SubmissionSummary): EditClass | 'unknown' {
  return s.edit?.class ?? 'unknown';
}

/** A class name in its palette colour (src/protocol/editClassPalette.ts), the same colour as the tree's icon. */
export function classBadge(c: EditClass | 'unknown', title?: string, text: string = c): HTMLElement {
  const el = h('span', { class: `badge ${c}`, title: title ?? c, 'data-edit-class': c }, text);
  // CSSOM, not a style attribute: the CSP allows no inline styles.
  if (c !== 'unknown') el.style.color = editClassCssColor(c);
  return el;
}

export function editBadge(s: SubmissionSummary): HTMLElement {
  const c = editClassOf(s);
  if (c === 'unknown') return h('span', { class: 'muted', title: 'Edit analysis has not run for this submission' }, '—');
  const details = s.edit?.details.slice(0, 8).join('\n');
  return classBadge(c, details && details.length > 0 ? details : c);
}

export function editSizeText(s: SubmissionSummary): string {
  if (s.edit === undefined) return '—';
  return `+${s.edit.linesAdded} −${s.edit.linesRemoved}`;
}
