/** CodeLens once per policy file (lensAnchor.ts): submit with the default count, and the last result. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunSession } from '../run/runSession';
import type { ExtensionSettings } from '../settings';
import { policyLensLine } from './lensAnchor';
import { lastResultLensTitle, submitLensTitle } from './lensText';

export class PolicyCodeLensProvider implements vscode.CodeLensProvider {
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changeEmitter.event;

  constructor(private readonly session: RunSession, private readonly settings: ExtensionSettings) {}

  refresh(): void {
    this.changeEmitter.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const model = this.session.model;
    if (!model?.status) return [];
    const rel = path.relative(model.root, doc.uri.fsPath);
    if (!rel.startsWith(`policy${path.sep}`)) return [];
    const submit = submitLensTitle(model.status, this.settings.submitEpisodes());
    const latest = model.latest;
    const last = lastResultLensTitle(latest, model.status.history);
    const lines = Array.from({ length: doc.lineCount }, (_, i) => doc.lineAt(i).text);
    const line = policyLensLine(lines, rel === path.join('policy', 'policy.ts'));
    if (line === undefined) return [];
    const range = new vscode.Range(line, 0, line, 0);
    const lenses: vscode.CodeLens[] = [];
    if (submit) lenses.push(new vscode.CodeLens(range, { title: submit, command: 'policyforge.submit', arguments: [{ episodes: Math.min(this.settings.submitEpisodes(), model.status.budget.remaining) }], tooltip: 'Submit the current policy/ for evaluation (spends budget)' }));
    if (last && latest) lenses.push(new vscode.CodeLens(range, { title: last, command: 'policyforge.openFeedback', arguments: [{ submission: latest.submission }], tooltip: 'Open the feedback of the last submission' }));
    return lenses;
  }
}

/** What the lens titles depend on; the lenses are refreshed only when it changes. */
function lensKey(session: RunSession, settings: ExtensionSettings): string {
  const m = session.model;
  const st = m?.status;
  return st ? `${st.phase}|${st.budget.remaining}|${m?.latest?.submission ?? 0}|${settings.submitEpisodes()}` : 'none';
}

export function registerPolicyCodeLens(session: RunSession, settings: ExtensionSettings): vscode.Disposable {
  const provider = new PolicyCodeLensProvider(session, settings);
  let key = lensKey(session, settings);
  let trailing: NodeJS.Timeout | undefined;
  const maybeRefresh = (): void => {
    const next = lensKey(session, settings);
    if (next === key) return;
    key = next;
    provider.refresh();
    // Once more after the burst settles: a lens request already in flight in the workbench
    // when the first event arrived could otherwise leave the old titles on screen.
    clearTimeout(trailing);
    trailing = setTimeout(() => provider.refresh(), 750);
  };
  return vscode.Disposable.from(
    vscode.languages.registerCodeLensProvider([{ language: 'typescript', scheme: 'file' }, { language: 'javascript', scheme: 'file' }], provider),
    session.onDidChange(maybeRefresh),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('policyforge.submitEpisodes') && maybeRefresh()),
    new vscode.Disposable(() => clearTimeout(trailing)),
  );
}
