/**
 * The read-only verbs on an arena run: `status` (budget, pool with weights and pins, ratings,
 * promotions), `feedback [N]` (a submission's per-opponent tables) and `report`. `status.ts`
 * hands an arena workspace to these; they stay light for the quick bundle.
 */
import { formatArenaReport, formatArenaStatus, formatArenaSummary } from '../../stats/arenaText';
import { ExitCode } from '../command';
import { fail, printJson, withClient } from './runClient';

export function arenaStatus(dir: string | undefined, json: boolean): Promise<number> {
  return withClient('status', dir, json, async ({ client }) => {
    const status = await client.request('arena.status', {});
    if (json) printJson({ ok: true, arena: true, status });
    else process.stdout.write(formatArenaStatus(status));
    return ExitCode.ok;
  });
}

export function arenaFeedback(dir: string | undefined, json: boolean, submission: number | undefined): Promise<number> {
  return withClient('feedback', dir, json, async ({ client }) => {
    const summary = await client.request('arena.feedback', submission === undefined ? {} : { submission });
    if (json) printJson({ ok: true, arena: true, summary });
    else process.stdout.write(formatArenaSummary(summary));
    return ExitCode.ok;
  });
}

export function arenaReport(dir: string | undefined, json: boolean): Promise<number> {
  return withClient('report', dir, json, async ({ client }) => {
    const report = await client.request('arena.report', {});
    if (!report) {
      const st = await client.request('arena.status', {});
      fail('report', json, `the arena run is not complete yet (phase ${st.phase}, ${st.budget.remaining} games left); \`policyforge finish\` ends it`, 'not_complete');
      return ExitCode.failed;
    }
    if (json) printJson({ ok: true, arena: true, report });
    else process.stdout.write(formatArenaReport(report));
    return ExitCode.ok;
  });
}
