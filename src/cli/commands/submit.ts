/** `policyforge submit`: run the current policy/ on some cases and print the feedback. */
import { parse, parseIntArg } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { formatSummary } from './format';
import { attachProgress } from './progress';
import { printJson, withClient } from './runClient';

export const submitCommand: CliCommand = {
  name: 'submit',
  summary: 'Run the current policy/ on training cases (charged to the budget) and print the feedback',
  usage: 'policyforge submit (--cases 0-7,12 | --episodes N) [--note TEXT] [--dir DIR] [--json]',
  async run(argv) {
    const { values } = parse(argv, { cases: { type: 'string' }, episodes: { type: 'string' }, note: { type: 'string' }, dir: { type: 'string' }, json: { type: 'boolean' } }, false);
    if ((values.cases === undefined) === (values.episodes === undefined)) throw new UsageError('give exactly one of --cases or --episodes');
    const episodes = values.episodes === undefined ? undefined : parseIntArg('episodes', values.episodes, 0, 1);
    const json = values.json ?? false;
    return withClient('submit', values.dir, json, async ({ client }) => {
      const stop = attachProgress(client, !json);
      try {
        const summary = await client.submit({ ...(values.cases !== undefined ? { cases: values.cases } : { episodes }), ...(values.note ? { note: values.note } : {}) });
        stop();
        if (json) printJson({ ok: true, summary });
        else process.stdout.write(formatSummary(summary, (await client.status()).history));
        return ExitCode.ok;
      } finally {
        stop();
      }
    });
  },
};
