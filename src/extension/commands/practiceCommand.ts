/**
 * Submit for Practice…: a practice submit from a training configuration, either the proposer's
 * suggestion for the weakest skill (also written to practice/proposal.json) or a JSON file the
 * user picks. Charged to the practice budget, never selected; the runner refuses an invalid
 * configuration before anything runs.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { describeZodError } from '../../protocol/run';
import { TrainingConfigSchema, type TrainingConfig } from '../../protocol/training';
import { proposeFor, writeProposal } from '../../runner/practiceProposal';
import { practiceParamsText } from '../../stats/practiceText';
import { builtInRegistry } from '../panels/envFamily';
import type { RunSession } from '../run/runSession';
import type { ExtensionSettings } from '../settings';
import { parseSubmitInput } from '../submit/caseInput';
import { submitWithProgress, type SubmitOutcome } from '../progress/submitWithProgress';
import { registerCommand } from './registerCommand';

function readConfigFile(file: string): TrainingConfig {
  const parsed = TrainingConfigSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown);
  if (!parsed.success) throw new Error(`${file} is not a training configuration: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

export function registerPracticeCommand(session: RunSession, settings: ExtensionSettings, log: vscode.LogOutputChannel): vscode.Disposable {
  const practise = async (): Promise<SubmitOutcome | undefined> => {
    const model = session.requireModel();
    const client = await model.supervisor.ensureClient();
    const suggestion = await proposeFor(client, builtInRegistry).then(
      (r) => r.proposal,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    const items: (vscode.QuickPickItem & { pick: 'proposal' | 'file' })[] = [
      typeof suggestion === 'string'
        ? { pick: 'proposal', label: '$(lightbulb) Proposer’s suggestion', description: 'unavailable', detail: suggestion }
        : { pick: 'proposal', label: '$(lightbulb) Proposer’s suggestion', description: practiceParamsText(suggestion.config.params), detail: suggestion.reason },
      { pick: 'file', label: '$(file) Configuration file…', detail: 'A JSON file: { "params": { … } } with parameters the environment declares for training' },
    ];
    const chosen = await vscode.window.showQuickPick(items, { title: 'PolicyForge: Submit for Practice', placeHolder: 'Practice on which training configuration?', ignoreFocusOut: true });
    if (!chosen) return undefined;
    let config: TrainingConfig;
    if (chosen.pick === 'proposal') {
      if (typeof suggestion === 'string') throw new Error(`no proposal: ${suggestion}`);
      writeProposal(model.root, suggestion);
      config = suggestion.config;
    } else {
      const picked = await vscode.window.showOpenDialog({ canSelectMany: false, defaultUri: vscode.Uri.file(model.root), filters: { 'Training configuration': ['json'] }, openLabel: 'Practise' });
      if (!picked?.[0]) return undefined;
      config = readConfigFile(picked[0].fsPath);
    }
    const [info, status] = await Promise.all([client.info(), client.status()]);
    const remaining = status.practice?.budget.remaining ?? 0;
    const limits = { poolSize: info.poolSize, remaining, minEpisodes: info.minEpisodesPerSubmit, maxEpisodes: info.maxEpisodesPerSubmit };
    const text = await vscode.window.showInputBox({
      title: `PolicyForge: Practise on ${practiceParamsText(config.params)}`,
      prompt: `Practice episodes (a count of cases) or case ranges · ${remaining} left in the practice budget · never selected`,
      value: String(Math.min(settings.submitEpisodes(), remaining)),
      ignoreFocusOut: true,
      validateInput: (v) => {
        const p = parseSubmitInput(v, limits);
        return p.ok ? null : p.message;
      },
    });
    if (text === undefined) return undefined;
    const p = parseSubmitInput(text, limits);
    if (!p.ok) throw new Error(p.message);
    return submitWithProgress(model, { ...p.request, config });
  };
  return registerCommand('policyforge.submitPractice', practise, log);
}
