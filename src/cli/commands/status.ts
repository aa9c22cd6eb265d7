/** `policyforge status`, `feedback [N]` and `report`: read-only views of the run. */
import { agentRecordLines, agentStatusLines, readAgentRecord } from '../../agents/agentRecord';
import { parse, parseIntArg } from '../args';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { finishingText } from '../../stats/progressText';
import { formatReport, formatStatus, formatSummary } from './format';
import { fail, printJson, withClient } from './runClient';
import { arenaFeedback, arenaReport, arenaStatus } from './arenaViews';
import { isArenaWorkspace } from './arenaWorkspace';

export const statusCommand: CliCommand = {
  name: 'status',
  summary: 'Budget, phase and submissions of the run',
  usage: 'policyforge status [--dir DIR] [--json]',
  async run(argv) {
    const { values } = parse(argv, { dir: { type: 'string' }, json: { type: 'boolean' } }, false);
    const json = values.json ?? false;
    if (isArenaWorkspace(values.dir)) return arenaStatus(values.dir, json);
    return withClient('status', values.dir, json, async ({ client, workspace }) => {
      const status = await client.status();
      // What a launched agent (external or LM) did and spent: .policyforge/agent/agent.json.
      const agent = readAgentRecord(workspace);
      if (json) printJson({ ok: true, status, ...(agent ? { agent } : {}) });
      else process.stdout.write(`${formatStatus(status)}${agentStatusLines(workspace).map((l) => `${l}\n`).join('')}`);
      return ExitCode.ok;
    });
  },
};

export const feedbackCommand: CliCommand = {
  name: 'feedback',
  summary: 'The feedback summary of a submission (default: the latest)',
  usage: 'policyforge feedback [N] [--dir DIR] [--json]',
  async run(argv) {
    const { values, positionals } = parse(argv, { dir: { type: 'string' }, json: { type: 'boolean' } });
    if (positionals.length > 1) throw new UsageError('give at most one submission number');
    const n = positionals[0] === undefined ? undefined : parseIntArg('N', positionals[0], 0, 1);
    const json = values.json ?? false;
    if (isArenaWorkspace(values.dir)) return arenaFeedback(values.dir, json, n);
    return withClient('feedback', values.dir, json, async ({ client }) => {
      const summary = await client.feedback(n);
      if (json) printJson({ ok: true, summary });
      else process.stdout.write(formatSummary(summary, (await client.status()).history));
      return ExitCode.ok;
    });
  },
};

export const reportCommand: CliCommand = {
  name: 'report',
  summary: 'The final report (selected submission, validation and held-out scores) once the run is complete',
  usage: 'policyforge report [--dir DIR] [--json]',
  async run(argv) {
    const { values } = parse(argv, { dir: { type: 'string' }, json: { type: 'boolean' } }, false);
    const json = values.json ?? false;
    if (isArenaWorkspace(values.dir)) return arenaReport(values.dir, json);
    return withClient('report', values.dir, json, async ({ client }) => {
      const report = await client.report();
      if (!report) {
        const st = await client.status();
        const doing = st.finishing ? `: ${finishingText(st.finishing)}; \`policyforge finish\` waits for it` : ` (phase ${st.phase}, ${st.budget.remaining} episodes remaining); \`policyforge finish\` ends it`;
        fail('report', json, `the run is not complete yet${doing}`, 'not_complete');
        return ExitCode.failed;
      }
      if (json) printJson({ ok: true, report });
      else process.stdout.write(`${formatReport(report, (await client.status()).history)}${(report.agent ? agentRecordLines(report.agent) : []).map((l) => `${l}\n`).join('')}`);
      return ExitCode.ok;
    });
  },
};
