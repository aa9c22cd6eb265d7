/** `policyforge submit`: run the current policy/ on some cases and print the feedback. */
import { createInterface } from 'node:readline/promises';
import { typeErrorWarning } from '../../stats/feedbackText';
import { lastBudgetDeclined, lastBudgetText, lastBudgetWarning, requestedEpisodes } from '../../stats/reportText';
import { parse, parseIntArg } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { formatSummary } from './format';
import { cancelOnInterrupt } from './interrupt';
import { attachProgress } from './progress';
import { readTrainingConfig } from './propose';
import { arenaSubmit } from './arenaSubmit';
import { isArenaWorkspace } from './arenaWorkspace';
import { fail, printJson, withClient } from './runClient';

export const submitCommand: CliCommand = {
  name: 'submit',
  summary: 'Run the current policy/ on training cases (charged to the budget) and print the feedback',
  usage:
    'policyforge submit (--cases 0-7,12 | --episodes N) [--config FILE] [--note TEXT] [--strict] [--yes] [--dir DIR] [--json]\n' +
    'policyforge submit [--note TEXT] [--strict] [--dir DIR] [--json]      (an arena run: plays the opponent pool)\n\n' +
    '  --config  a training configuration (JSON, e.g. from `policyforge propose`): a practice submit on\n' +
    '            the environment changed as it says, charged to the practice budget, never selected\n' +
    '  --strict  refuse (uncharged, exit 1) when policy/ has type errors; without it they are a warning\n' +
    '  --yes     do not ask before a submit that spends the last of the budget (and so ends the run);\n' +
    '            only a terminal is asked: elsewhere the warning is printed and the submit runs\n\n' +
    'Ctrl-C while the episodes play cancels the submit in the runner: rolled back, nothing charged, exit 1\n' +
    '(a second Ctrl-C leaves at once, without waiting for the runner to confirm).',
  async run(argv) {
    const { values } = parse(
      argv,
      { cases: { type: 'string' }, episodes: { type: 'string' }, config: { type: 'string' }, note: { type: 'string' }, strict: { type: 'boolean' }, yes: { type: 'boolean' }, dir: { type: 'string' }, json: { type: 'boolean' } },
      false,
    );
    if (isArenaWorkspace(values.dir)) {
      if (values.cases !== undefined || values.episodes !== undefined || values.config !== undefined) throw new UsageError('an arena submit plays the opponent pool (screen, then deep evaluation): it takes no --cases, --episodes or --config');
      return arenaSubmit({ dir: values.dir, json: values.json ?? false, note: values.note, strict: values.strict });
    }
    if ((values.cases === undefined) === (values.episodes === undefined)) throw new UsageError('give exactly one of --cases or --episodes');
    const episodes = values.episodes === undefined ? undefined : parseIntArg('episodes', values.episodes, 0, 1);
    const json = values.json ?? false;
    const strict = values.strict ?? false;
    const request = values.cases !== undefined ? { cases: values.cases } : { episodes };
    const config = values.config !== undefined ? readTrainingConfig(values.config) : undefined;
    return withClient('submit', values.dir, json, async ({ client }) => {
      // Both warnings come before anything runs. The build is cached by content, so checking first
      // costs the submit nothing; a strict submit leaves the refusal to the runner, which journals it.
      const warnings = strict ? [] : typeErrorWarning(await client.check(), '--strict');
      // Practice spends its own budget and never ends the run.
      const before = config ? null : await client.status();
      const last = before ? lastBudgetWarning(requestedEpisodes(request), before, 'cli') : null;
      if (last) warnings.push(last);
      for (const w of json ? [] : warnings) process.stderr.write(`${w}\n`);
      const decision = lastBudgetDecision({ warning: last, yes: values.yes ?? false, json, interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY) });
      if (decision === 'ask' && !(await confirm('Spend the last of the budget and end the run? [y/N] '))) {
        fail('submit', json, lastBudgetDeclined(before?.history ?? [], 'cli'), 'declined');
        return ExitCode.failed;
      }
      const stop = attachProgress(client, !json, (p) => p.phase === 'submit');
      const release = cancelOnInterrupt(client, json);
      let summary: Awaited<ReturnType<typeof client.submit>>;
      try {
        summary = await client.submit({ ...request, ...(values.note ? { note: values.note } : {}), ...(strict ? { strict } : {}), ...(config ? { config } : {}) });
      } finally {
        release();
        stop();
      }
      const history = (await client.status()).history;
      if (!json) process.stdout.write(formatSummary(summary, history));
      if (summary.budget.remaining !== 0) {
        if (json) printJson({ ok: true, summary, ...(warnings.length ? { warnings } : {}) });
        return ExitCode.ok;
      }
      // The run ends with this submit: validation and assessment run now, with their progress
      // under the feedback just printed (a long validation must never look like a hang).
      const stopEnd = attachProgress(client, !json);
      let report: Awaited<ReturnType<typeof client.awaitReport>>;
      try {
        report = await client.awaitReport();
      } finally {
        stopEnd();
      }
      if (json) printJson({ ok: true, summary, ...(warnings.length ? { warnings } : {}), report });
      else process.stdout.write(`\n${lastBudgetText(report, history)}`);
      return ExitCode.ok;
    });
  },
};

/**
 * Whether the CLI asks before a submit that spends the last of the budget: only a person at a
 * terminal can answer, so a script, an agent or `--json` gets the printed warning and the submit
 * runs; `--yes` answers in advance. `none` when the submit is not the last.
 */
export function lastBudgetDecision(o: { warning: string | null; yes: boolean; json: boolean; interactive: boolean }): 'none' | 'ask' | 'warn' {
  if (o.warning === null) return 'none';
  return o.yes || o.json || !o.interactive ? 'warn' : 'ask';
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
