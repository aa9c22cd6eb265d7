/**
 * Language-model tools for chat agent mode: policyforge_submit / _status / _feedback / _finish
 * (declared in package.json `languageModelTools`). Their inputs are the protocol's params
 * (toolSchemas.ts) and are checked against them before anything runs. The budget-spending ones
 * ask for confirmation in prepareInvocation, which also warns about type errors before anything
 * is charged. Submit and feedback return the summary text the CLI and the MCP server print
 * (src/stats/feedbackText.ts) followed by the protocol's JSON document, as the MCP tools do.
 */
import * as vscode from 'vscode';
import { formatCaseRanges } from '../../protocol/caseRanges';
import type { RunSession } from '../run/runSession';
import { finishWithProgress } from '../progress/finishWithProgress';
import { submitWithProgress } from '../progress/submitWithProgress';
import { formatSummary } from '../../stats/feedbackText';
import { submitResultText, submitWarnings, warningMarkdown } from './submitText';
import { checkToolInput, type LmToolInput, type LmToolName, type LmToolParams } from './toolSchemas';
import { practiceParamsText } from '../../stats/practiceText';
import { formatArenaReport, formatArenaStatus, formatArenaSummary, formatPoolChange } from '../../stats/arenaText';
import { isArenaModel } from '../arena/arenaCommands';

type SubmitInput = LmToolInput<'policyforge_submit'>;

/** The tool's input as the protocol defines it; a model that sent something else is told which field is wrong. */
function checkedInput<N extends LmToolName>(name: N, input: unknown): LmToolParams<N> {
  const checked = checkToolInput(name, input);
  if (!checked.ok) throw new Error(checked.error);
  return checked.params;
}

/** The summary text to read first (when there is one), then the protocol's JSON document as the last part. */
function result(value: unknown, text?: string): vscode.LanguageModelToolResult {
  const json = new vscode.LanguageModelTextPart(JSON.stringify(value, null, 2));
  return new vscode.LanguageModelToolResult(text ? [new vscode.LanguageModelTextPart(text), json] : [json]);
}

function describeSubmit(input: SubmitInput): string {
  if (input.config) return `practice (${practiceParamsText(input.config.params)}) on ${describeSubmit({ ...input, config: undefined })}`;
  if (input.episodes !== undefined) return `${input.episodes} episode(s) on new cases`;
  if (input.cases !== undefined) return `cases ${typeof input.cases === 'string' ? input.cases : formatCaseRanges(input.cases)}`;
  return 'nothing (give episodes or cases)';
}

export function registerRunTools(session: RunSession): vscode.Disposable {
  const client = async () => (await session.requireModel().supervisor.ensureClient());

  const submit: vscode.LanguageModelTool<SubmitInput> = {
    async prepareInvocation(options) {
      if (session.model && isArenaModel(session.model)) {
        return { invocationMessage: 'Playing the PolicyForge arena pool', confirmationMessages: { title: 'Spend PolicyForge arena games?', message: new vscode.MarkdownString(`Play the current \`policy/\` against the opponent pool: a screen of games against every opponent, then a deep evaluation if it passes. Every game is charged.`) } };
      }
      // Before the charge: the confirmation is where a type error or the end of the run can still stop the submit.
      const w = await client().then(
        async (c) => submitWarnings(options.input, options.input.strict ? null : await c.check(), options.input.config ? null : await c.status()),
        () => submitWarnings(options.input, null, null),
      );
      const left = session.model?.status?.budget.remaining;
      const title = w.lastBudget ? 'Spend the last of the PolicyForge budget and end the run?' : w.typeErrors.length ? 'Spend PolicyForge budget on a policy with type errors?' : 'Spend PolicyForge budget?';
      return {
        invocationMessage: `Submitting ${describeSubmit(options.input)} to PolicyForge`,
        confirmationMessages: { title, message: new vscode.MarkdownString(`Run the current \`policy/\` on ${describeSubmit(options.input)}.${left !== undefined ? ` Budget left: **${left}**.` : ''} ${options.input.config ? 'Every case costs one episode of the practice budget (never selected).' : 'Every case costs one episode of budget.'}${warningMarkdown(w)}`) },
      };
    },
    async invoke(options) {
      const model = session.requireModel();
      if (isArenaModel(model)) {
        // An arena submit takes no cases: only the note and strict of the same input.
        const { note, strict } = options.input;
        const summary = await (await client()).request('arena.submit', { ...(note ? { note } : {}), ...(strict ? { strict } : {}) });
        await model.refresh().catch(() => undefined);
        return result(summary, formatArenaSummary(summary));
      }
      const input = checkedInput('policyforge_submit', options.input);
      const request = input.episodes !== undefined ? { episodes: input.episodes } : { cases: typeof input.cases === 'string' ? input.cases : formatCaseRanges(input.cases ?? []) };
      // The end-of-budget warning goes back with the result too (the type errors come from the submit's own check).
      const c = await client();
      // Practice spends its own budget and never ends the run.
      const lastBudget = input.config ? null : submitWarnings(input, null, await c.status()).lastBudget;
      const outcome = await submitWithProgress(model, { ...request, ...(input.note ? { note: input.note } : {}), ...(input.strict ? { strict: true } : {}), ...(input.config ? { config: input.config } : {}) }, { quiet: true });
      if (!outcome.ok) return result({ rejected: true, reason: outcome.reason, message: outcome.message, charged: 0 });
      // The submit that spent the last of the budget started the finish: wait for its report, as the CLI does.
      const report = outcome.summary.budget.remaining === 0 ? await finishWithProgress(model, 'awaitReport', vscode.ProgressLocation.Window) : undefined;
      if (report) {
        model.applyCompleted(report);
        await model.refresh();
      }
      const text = submitResultText({ typeErrors: outcome.warnings ?? [], lastBudget }, outcome.summary, model.status?.history ?? [], report);
      return result(report ? { summary: outcome.summary, report } : outcome.summary, text);
    },
  };
  const status: vscode.LanguageModelTool<LmToolInput<'policyforge_status'>> = {
    async invoke(options) {
      checkedInput('policyforge_status', options.input);
      const c = await client();
      if (session.model && isArenaModel(session.model)) {
        const st = await c.request('arena.status', {});
        return result(st, formatArenaStatus(st));
      }
      const [info, st] = await Promise.all([c.info(), c.status()]);
      return result({ envId: info.envId, poolSize: info.poolSize, ...st });
    },
  };
  const feedback: vscode.LanguageModelTool<LmToolInput<'policyforge_feedback'>> = {
    async invoke(options) {
      const input = checkedInput('policyforge_feedback', options.input);
      const c = await client();
      if (session.model && isArenaModel(session.model)) {
        const summary = await c.request('arena.feedback', input.submission === undefined ? {} : { submission: input.submission });
        return result(summary, formatArenaSummary(summary));
      }
      const summary = await c.feedback(input.submission);
      return result(summary, formatSummary(summary, (await c.status()).history));
    },
  };
  const finish: vscode.LanguageModelTool<LmToolInput<'policyforge_finish'>> = {
    prepareInvocation(options) {
      const left = session.model?.status?.budget.remaining;
      return {
        invocationMessage: 'Finishing the PolicyForge run (validation and held-out assessment)',
        confirmationMessages: { title: 'Finish the PolicyForge run?', message: new vscode.MarkdownString(`End the agent phase${options.input.candidates ? ` with candidates ${options.input.candidates.join(', ')}` : ''}.${left ? ` **${left}** episodes of budget stay unused.` : ''} No more submissions afterwards.`) },
      };
    },
    async invoke(options) {
      const model = session.requireModel();
      const input = checkedInput('policyforge_finish', options.input);
      if (isArenaModel(model)) {
        const report = await (await client()).request('arena.finish', {});
        await model.refresh().catch(() => undefined);
        return result(report, formatArenaReport(report));
      }
      // Progress in the window's status area: the tool's caller waits, the person can watch.
      const report = await finishWithProgress(model, { candidates: input.candidates }, vscode.ProgressLocation.Window);
      model.applyCompleted(report);
      await model.refresh();
      return result(report);
    },
  };
  const pool: vscode.LanguageModelTool<LmToolInput<'policyforge_pool'>> = {
    prepareInvocation(options) {
      return { invocationMessage: `PolicyForge: ${options.input.action} ${options.input.opponent}` };
    },
    async invoke(options) {
      const input = checkedInput('policyforge_pool', options.input);
      const c = await client();
      const r = input.action === 'drop' ? await c.request('arena.drop', { opponent: input.opponent }) : await c.request('arena.pin', { opponent: input.opponent, pinned: input.action === 'pin' });
      return result(r, formatPoolChange(input.action === 'drop' ? 'dropped' : input.action === 'pin' ? 'pinned' : 'unpinned', input.opponent, r));
    },
  };
  return vscode.Disposable.from(
    vscode.lm.registerTool('policyforge_pool', pool),
    vscode.lm.registerTool('policyforge_submit', submit),
    vscode.lm.registerTool('policyforge_status', status),
    vscode.lm.registerTool('policyforge_feedback', feedback),
    vscode.lm.registerTool('policyforge_finish', finish),
  );
}
