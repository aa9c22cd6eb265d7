/** `policyforge finish` and `restore N`: end the agent phase; restore an older checkpoint into policy/. */
import { agentRecordLines } from '../../agents/agentRecord';
import { parse, parseIntArg } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { checkBaseline, reportWithAutotune } from './finishBaseline';
import { formatReport } from './format';
import { attachProgress } from './progress';
import { printJson, withClient } from './runClient';
import { arenaFinish } from './arenaSubmit';
import { isArenaWorkspace } from './arenaWorkspace';

export const finishCommand: CliCommand = {
  name: 'finish',
  summary: 'End the run: validate candidates on hidden cases, assess the selected one, write the report',
  usage:
    'policyforge finish [--candidates 3,5] [--baseline autotune] [--dir DIR] [--json]\n' +
    '  --baseline autotune: also run autotune with the same budget on the same cases and report it beside the starter and the random policy',
  async run(argv) {
    const { values } = parse(argv, { candidates: { type: 'string' }, baseline: { type: 'string' }, dir: { type: 'string' }, json: { type: 'boolean' } }, false);
    checkBaseline(values.baseline);
    let candidates: number[] | undefined;
    if (values.candidates !== undefined) {
      candidates = values.candidates.split(',').map((s) => parseIntArg('candidates', s.trim(), 0, 1));
      if (candidates.length === 0) throw new UsageError('--candidates needs at least one submission number');
    }
    const json = values.json ?? false;
    if (isArenaWorkspace(values.dir)) {
      if (candidates) throw new UsageError('an arena run validates every submission against the final pool: --candidates does not apply');
      return arenaFinish(values.dir, json);
    }
    return withClient('finish', values.dir, json, async ({ client, workspace }) => {
      // finish is idempotent on the runner (it returns the report again); say which happened.
      const alreadyFinished = (await client.status()).phase === 'complete';
      const stop = attachProgress(client, !json);
      try {
        const finished = await client.finish(candidates);
        stop();
        const report = values.baseline ? await reportWithAutotune(workspace, json) : finished;
        if (json) printJson({ ok: true, alreadyFinished, report });
        else {
          if (alreadyFinished) process.stdout.write('the run had already finished; its report:\n');
          process.stdout.write(`${formatReport(report, (await client.status()).history)}${(report.agent ? agentRecordLines(report.agent) : []).map((l) => `${l}\n`).join('')}`);
        }
        return ExitCode.ok;
      } finally {
        stop();
      }
    });
  },
};

export const restoreCommand: CliCommand = {
  name: 'restore',
  summary: 'Copy submission N\'s checkpoint back into policy/ (recorded; the next submission descends from it)',
  usage: 'policyforge restore N [--dir DIR] [--json]',
  async run(argv) {
    const { values, positionals } = parse(argv, { dir: { type: 'string' }, json: { type: 'boolean' } });
    if (positionals.length !== 1) throw new UsageError('give exactly one submission number');
    const n = parseIntArg('N', positionals[0], 0, 1);
    const json = values.json ?? false;
    return withClient('restore', values.dir, json, async ({ client }) => {
      const result = await client.restore(n);
      if (json) printJson({ ok: true, restore: result });
      else process.stdout.write(`restored submission ${result.submission} (checkpoint ${result.checkpoint.slice(0, 12)}) into policy/: ${result.files.join(', ')}\n`);
      return ExitCode.ok;
    });
  },
};
