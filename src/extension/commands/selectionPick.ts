/**
 * The selection rule of a new run, chosen in New Policy Workspace as `policyforge init
 * --selection paper|candidates|gated [--gate-delta X] [--elite K]` chooses it: the mode, the
 * gate's threshold Δ (empty: one standard error of the incumbent) and elite re-evaluation of the
 * top k candidates on fresh validation cases (0: off). Defaults come from the settings.
 */
import * as vscode from 'vscode';

export type SelectionMode = 'paper' | 'candidates' | 'gated';

export interface SelectionChoice {
  selectionMode: SelectionMode;
  /** The gate's Δ; absent: one standard error of the incumbent. */
  gateDelta?: number;
  /** Elite re-evaluation of the top k; absent: off. */
  eliteK?: number;
}

const MODES: { mode: SelectionMode; label: string; detail: string }[] = [
  { mode: 'paper', label: 'paper', detail: 'The best validation mean wins; the later submission wins ties (the EvoPolicyGym rule)' },
  { mode: 'candidates', label: 'candidates', detail: 'Only the submissions named at finish are validated (finish --candidates 3,5)' },
  { mode: 'gated', label: 'gated', detail: 'Two-stage gate: a candidate replaces the incumbent only if it beats it by more than Δ on each half of the validation cases' },
];

/** One line for the parameters quick pick: what the run will select by. */
export function describeSelection(s: SelectionChoice): string {
  const gate = s.selectionMode === 'gated' ? ` (Δ ${s.gateDelta === undefined ? '= 1 standard error of the incumbent' : `= ${s.gateDelta}`})` : '';
  return `${s.selectionMode}${gate}${s.eliteK ? `, elite re-evaluation of the top ${s.eliteK}` : ''}`;
}

/** Asks for the mode, then Δ for the gate, then the elite size; undefined when the user backs out. */
export async function askSelection(current: SelectionChoice, title: string): Promise<SelectionChoice | undefined> {
  const picked = await vscode.window.showQuickPick(
    MODES.map((m) => ({ label: m.label, detail: m.detail, description: m.mode === current.selectionMode ? 'current' : undefined, mode: m.mode })),
    { title: `${title}: selection mode`, placeHolder: 'How the run picks the submission to assess after the budget is spent', ignoreFocusOut: true },
  );
  if (!picked) return undefined;
  const next: SelectionChoice = { selectionMode: picked.mode };
  if (picked.mode === 'gated') {
    const delta = await vscode.window.showInputBox({
      title: `${title}: gate threshold Δ`,
      prompt: 'Return margin a candidate must beat the incumbent by on each half of the validation cases. Empty: one standard error of the incumbent.',
      value: current.gateDelta === undefined ? '' : String(current.gateDelta),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' || (Number.isFinite(Number(v)) && Number(v) >= 0) ? undefined : 'A number ≥ 0, or empty'),
    });
    if (delta === undefined) return undefined;
    if (delta.trim() !== '') next.gateDelta = Number(delta);
  }
  const elite = await vscode.window.showInputBox({
    title: `${title}: elite re-evaluation`,
    prompt: 'Re-run the top k candidates on fresh validation cases before the choice, so a lucky checkpoint cannot win on a few episodes. 0: off.',
    value: String(current.eliteK ?? 0),
    ignoreFocusOut: true,
    validateInput: (v) => (/^\d+$/.test(v.trim()) ? undefined : 'A whole number (0 turns it off)'),
  });
  if (elite === undefined) return undefined;
  if (Number(elite) > 0) next.eliteK = Number(elite);
  return next;
}
