/**
 * PolicyForge: Start LM Agent — the built-in LM agent (src/agents/lm) on a model from
 * `vscode.lm`, picked in a quick pick, with its spend in the status bar and a cancellable
 * progress notification. Stop LM Agent ends it cleanly; Open Agent Transcript opens what
 * produced a submission (an LM turn, or the external agent's transcript at that moment).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { addAgentToReport, agentDir, ENDING_TEXT, formatCost, readAgentRecord, spendText, type AgentSpend } from '../../agents/agentRecord';
import { finishOrAwaitReport } from '../../agents/runEnd';
import { Ledger } from '../../agents/lm/ledger';
import { runLmAgent, type LmAgentResult } from '../../agents/lm/loop';
import { registerCommand } from '../commands/registerCommand';
import { submissionArg } from '../commands/submitCommands';
import type { RunSession } from '../run/runSession';
import { vscodeLmModel } from './vscodeLmModel';

export const NO_MODELS_MESSAGE = 'PolicyForge: no language models available. Install and sign in to a chat model provider (GitHub Copilot, or any extension that contributes models to vscode.lm), then run Start LM Agent again. From a terminal, `policyforge agent --base-url URL --model NAME` uses any OpenAI-compatible endpoint.';

export type StartResult = { started: false; reason: 'no_models' | 'not_picked' | 'already_running' } | ({ started: true } & Pick<LmAgentResult, 'ending' | 'detail' | 'turns'> & { spend: AgentSpend });

interface StartArgs {
  /** Skip the quick pick: the id of one of `vscode.lm.selectChatModels()`. */
  modelId?: string;
}

function lmSettings() {
  const c = vscode.workspace.getConfiguration('policyforge.lmAgent');
  const positive = (key: string): number | undefined => {
    const v = c.get<number>(key, 0);
    return v > 0 ? v : undefined;
  };
  return {
    prices: { inPerMTok: c.get<number>('priceInPerMTok', 0), outPerMTok: c.get<number>('priceOutPerMTok', 0) },
    caps: { tokens: positive('maxTokens'), cost: positive('maxCost'), timeLimitMs: (positive('timeLimitMinutes') ?? 0) * 60_000 || undefined, turns: positive('maxTurns') ?? 50 },
    batch: positive('batch') ?? 8,
  };
}

export function registerLmAgentCommands(session: RunSession, log: vscode.LogOutputChannel): vscode.Disposable {
  const bar = vscode.window.createStatusBarItem('policyforge.lmAgent', vscode.StatusBarAlignment.Left, 90);
  bar.name = 'PolicyForge LM Agent';
  let running: AbortController | null = null;

  const showSpend = (spend: AgentSpend, note: string, live: boolean): void => {
    const tokens = spend.tokensIn + spend.tokensOut;
    bar.text = `${live ? '$(loading~spin)' : '$(sparkle)'} LM ${tokens >= 10_000 ? `${(tokens / 1000).toFixed(1)}k` : tokens} tok · ${formatCost(spend.cost)}`;
    bar.tooltip = `PolicyForge LM agent: ${note}\n${spendText(spend)}${live ? '\nClick to stop it.' : '\nClick to open its record.'}`;
    bar.command = live ? 'policyforge.stopLmAgent' : 'policyforge.openAgentTranscript';
    bar.show();
  };

  const start = async (arg?: unknown): Promise<StartResult> => {
    const model = session.requireModel();
    if (running) {
      void vscode.window.showInformationMessage('PolicyForge: the LM agent is already running (Stop LM Agent ends it).');
      return { started: false, reason: 'already_running' };
    }
    const models = await vscode.lm.selectChatModels();
    if (models.length === 0) {
      void vscode.window.showWarningMessage(NO_MODELS_MESSAGE);
      return { started: false, reason: 'no_models' };
    }
    const wanted = (arg as StartArgs | undefined)?.modelId;
    const chat = wanted
      ? models.find((m) => m.id === wanted)
      : (
          await vscode.window.showQuickPick(
            models.map((m) => ({ label: m.name, description: `${m.vendor} · ${m.family}${m.version ? ` · ${m.version}` : ''}`, detail: `up to ${m.maxInputTokens} input tokens`, model: m })),
            { title: 'PolicyForge: Start LM Agent', placeHolder: 'Pick the language model that edits the policy' },
          )
        )?.model;
    if (!chat) return { started: false, reason: 'not_picked' };
    const client = await model.supervisor.ensureClient();
    const cfg = lmSettings();
    const ledger = new Ledger(cfg.prices, cfg.caps);
    const controller = new AbortController();
    running = controller;
    void vscode.commands.executeCommand('setContext', 'policyforge.lmAgentRunning', true);
    showSpend(ledger.spend, `starting on ${chat.name}`, true);
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `PolicyForge LM agent (${chat.name})`, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          return runLmAgent({
            client,
            workspace: model.root,
            model: vscodeLmModel(chat),
            ledger,
            batch: cfg.batch,
            signal: controller.signal,
            log: (line) => {
              log.info(`LM agent: ${line}`);
              progress.report({ message: line });
            },
            onSpend: (spend, turn) => showSpend(spend, `turn ${turn} on ${chat.name}`, true),
          });
        },
      );
      if (result.ending === 'budget_spent' || result.ending === 'agent_finished') {
        // The run is ending (the runner validates and assesses): the report gets the agent's record.
        await finishOrAwaitReport(client);
        addAgentToReport(model.root, result.record);
      }
      const ended = `ended because ${ENDING_TEXT[result.ending]}${result.detail ? ` (${result.detail})` : ''}`;
      showSpend(result.record.spend ?? ledger.spend, ended, false);
      void vscode.window.showInformationMessage(`PolicyForge LM agent ${ended}: ${spendText(ledger.spend, result.record.caps)}.`);
      return { started: true, ending: result.ending, detail: result.detail, turns: result.turns, spend: { ...ledger.spend } };
    } finally {
      running = null;
      void vscode.commands.executeCommand('setContext', 'policyforge.lmAgentRunning', false);
    }
  };

  const stop = (): boolean => {
    running?.abort();
    return running !== null;
  };

  /** The transcript behind a submission (the record when none is named). */
  const openTranscript = async (arg?: unknown): Promise<vscode.Uri> => {
    const model = session.requireModel();
    const record = readAgentRecord(model.root);
    if (!record) throw new Error('no agent was launched on this run, so there is no agent transcript');
    const n = submissionArg(arg);
    if (n === undefined) {
      const uri = vscode.Uri.file(path.join(agentDir(model.root), 'agent.json'));
      await vscode.window.showTextDocument(uri, { preview: true });
      return uri;
    }
    const link = record.submissions.find((s) => s.submission === n);
    if (!link) throw new Error(`submission #${n} was not made by the ${record.kind === 'lm' ? 'LM' : 'external'} agent, so it has no agent transcript`);
    const uri = vscode.Uri.file(path.join(agentDir(model.root), ...link.transcript.split('/')));
    if (!fs.existsSync(uri.fsPath)) throw new Error(`the transcript ${link.transcript} is missing`);
    const line = Math.max(0, (link.line ?? 1) - 1);
    await vscode.window.showTextDocument(uri, { preview: true, selection: new vscode.Range(line, 0, line, 0) });
    return uri;
  };

  return vscode.Disposable.from(
    bar,
    registerCommand('policyforge.startLmAgent', start, log),
    registerCommand('policyforge.stopLmAgent', stop, log),
    registerCommand('policyforge.openAgentTranscript', openTranscript, log),
  );
}
