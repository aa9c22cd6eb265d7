/** `policyforge submit`: run the current policy/ on some cases and print the feedback. */
import type { RunReport } from '../../protocol/feedback';
import type { CheckResult } from '../../protocol/run';
import { typeErrorWarning as sharedWarning } from '../../stats/feedbackText';
import type { RunnerClient } from '../../runner/client';
import { RunnerLostError } from '../../runner/client';
import { parse, parseIntArg } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { formatReport, formatSummary } from './format';
import { attachProgress } from './progress';
import { printJson, withClient } from './runClient';

export const submitCommand: CliCommand = {
  name: 'submit',
  summary: 'Run the current policy/ on training cases (charged to the budget) and print the feedback',
  usage: 'policyforge submit (--cases 0-7,12 | --episodes N) [--note TEXT] [--strict] [--dir DIR] [--json]\n\n  --strict  refuse (uncharged, exit 1) when policy/ has type errors; without it they are a warning',
  async run(argv) {
    const { values } = parse(
      argv,
      { cases: { type: 'string' }, episodes: { type: 'string' }, note: { type: 'string' }, strict: { type: 'boolean' }, dir: { type: 'string' }, json: { type: 'boolean' } },
      false,
    );
    if ((values.cases === undefined) === (values.episodes === undefined)) throw new UsageError('give exactly one of --cases or --episodes');
    const episodes = values.episodes === undefined ? undefined : parseIntArg('episodes', values.episodes, 0, 1);
    const json = values.json ?? false;
    const strict = values.strict ?? false;
    return withClient('submit', values.dir, json, async ({ client }) => {
      // The build is cached by content, so checking first costs the submit nothing; a strict
      // submit leaves the refusal to the runner, which journals it.
      const warnings = strict ? [] : typeErrorWarning(await client.check());
      for (const w of json ? [] : warnings) process.stderr.write(`${w}\n`);
      const stop = attachProgress(client, !json);
      try {
        const summary = await client.submit({
          ...(values.cases !== undefined ? { cases: values.cases } : { episodes }),
          ...(values.note ? { note: values.note } : {}),
          ...(strict ? { strict } : {}),
        });
        stop();
        const history = (await client.status()).history;
        const report = summary.budget.remaining === 0 ? await awaitRunReport(client) : undefined;
        if (json) printJson({ ok: true, summary, ...(warnings.length ? { warnings } : {}), ...(report ? { report } : {}) });
        else {
          process.stdout.write(formatSummary(summary, history));
          if (report) process.stdout.write(`\n${lastBudgetText(report, history)}`);
        }
        return ExitCode.ok;
      } finally {
        stop();
      }
    });
  },
};

/** The CLI's and the MCP server's warning for a policy with type errors (empty without). */
export function typeErrorWarning(check: CheckResult, refuse = '--strict'): string[] {
  return sharedWarning(check, refuse);
}

/** The report the runner writes once a submit spent the last of the budget (it starts the finish itself). */
export function awaitRunReport(client: RunnerClient): Promise<RunReport> {
  return new Promise<RunReport>((resolve, reject) => {
    const onCompleted = ({ report }: { report: RunReport }): void => done(() => resolve(report));
    const onClose = (): void => done(() => reject(new RunnerLostError('the runner closed the connection while it finished the run', 'run.report', null)));
    const done = (then: () => void): void => {
      client.off('run.completed', onCompleted);
      client.off('close', onClose);
      then();
    };
    client.on('run.completed', onCompleted);
    client.on('close', onClose);
    // Listening first, then asking, so a report finished in between is not missed.
    client.report().then(
      (r) => r && done(() => resolve(r)),
      (e: unknown) => done(() => reject(e)),
    );
  });
}

/** What the submit that spent the last of the budget adds under its feedback. */
export function lastBudgetText(report: RunReport, history: readonly { mean: number }[]): string {
  return `That submit spent the last of the budget, so the run has ended: the runner validated the candidates and assessed the selected one on hidden cases.\n${formatReport(report, history)}`;
}
