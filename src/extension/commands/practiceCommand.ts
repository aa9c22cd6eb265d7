/**
 * Submit for Practice…: a practice submit from a training configuration, either the proposer's
 * suggestion for the weakest skill (also written to practice/proposal.json) or a JSON file the
 * user picks. Charged to the practice budget, never selected; the runner refuses an invalid
 * configuration before anything runs. Callers may skip the questions with
 * `{ config: 'proposal' | file | { params }, episodes | cases }`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeZodError } from '../../protocol/run';
import { TrainingConfigSchema, type TrainingConfig } from '../../protocol/training';
import type { RunnerClient } from '../../runner';
import { proposeFor, writeProposal, type Proposal } from '../../runner/practiceProposal';
import { practiceParamsText } from '../../stats/practiceText';
import { builtInRegistry } from '../panels/envFamily';
import type { RunSession } from '../run/runSession';
import type { ExtensionSettings } from '../settings';
import { parseSubmitInput } from '../submit/caseInput';
import { submitWithProgress, type SubmitOutcome } from '../progress/submitWithProgress';
import { registerCommand } from './registerCommand';

function parseConfig(value: unknown, what: string): TrainingConfig {
  const parsed = TrainingConfigSchema.safeParse(value);
  if (!parsed.success) throw new Error(`${what} is not a training configuration: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

function readConfigFile(file: string): TrainingConfig {
  return parseConfig(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown, file);
}

/** `policyforge.submitPractice` arguments: `config` is `'proposal'`, a JSON file (relative to the run) or a configuration. */
export interface PracticeArgs {
  config?: 'proposal' | string | TrainingConfig;
  episodes?: number;
  cases?: string;
}

export function registerPracticeCommand(session: RunSession, settings: ExtensionSettings, log: vscode.LogOutputChannel): vscode.Disposable {
  const practise = async (raw?: unknown): Promise<SubmitOutcome | undefined> => {
    const args = (raw && typeof raw === 'object' ? raw : {}) as PracticeArgs;
    const model = session.requireModel();
    const client = await model.supervisor.ensureClient();
    // The proposal practised on is kept in practice/proposal.json, as `policyforge propose` keeps it.
    const adopt = (p: Proposal): TrainingConfig => {
      writeProposal(model.root, p);
      return p.config;
    };
    let config: TrainingConfig | undefined;
    if (args.config === 'proposal') config = adopt((await proposeFor(client, builtInRegistry)).proposal);
    else if (typeof args.config === 'string') config = readConfigFile(path.resolve(model.root, args.config));
    else if (args.config !== undefined) config = parseConfig(args.config, 'the config argument');
    else config = await pickConfig(model.root, client, adopt);
    if (!config) return undefined;
    const [info, status] = await Promise.all([client.info(), client.status()]);
    const remaining = status.practice?.budget.remaining ?? 0;
    const limits = { poolSize: info.poolSize, remaining, minEpisodes: info.minEpisodesPerSubmit, maxEpisodes: info.maxEpisodesPerSubmit };
    const given = args.cases ?? (args.episodes !== undefined ? String(args.episodes) : undefined);
    const text = given ?? (await vscode.window.showInputBox({
      title: `PolicyForge: Practise on ${practiceParamsText(config.params)}`,
      prompt: `Practice episodes (a count of cases) or case ranges · ${remaining} left in the practice budget · never selected`,
      value: String(Math.min(settings.submitEpisodes(), remaining)),
      ignoreFocusOut: true,
      validateInput: (v) => {
        const p = parseSubmitInput(v, limits);
        return p.ok ? null : p.message;
      },
    }));
    if (text === undefined) return undefined;
    const p = parseSubmitInput(text, limits);
    if (!p.ok) throw new Error(p.message);
    return submitWithProgress(model, { ...p.request, config });
  };
  return registerCommand('policyforge.submitPractice', practise, log);
}

/** The quick pick: the proposer's suggestion (computed up front, so the pick can show it) or a file. */
async function pickConfig(root: string, client: RunnerClient, adopt: (p: Proposal) => TrainingConfig): Promise<TrainingConfig | undefined> {
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
  if (chosen.pick === 'proposal') {
    if (typeof suggestion === 'string') throw new Error(`no proposal: ${suggestion}`);
    return adopt(suggestion);
  }
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, defaultUri: vscode.Uri.file(root), filters: { 'Training configuration': ['json'] }, openLabel: 'Practise' });
  return picked?.[0] ? readConfigFile(picked[0].fsPath) : undefined;
}
