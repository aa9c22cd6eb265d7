/** Ending a run an agent drove: finish it if the agent left it open, else wait for the runner's own finish. */
import type { RunReport } from '../protocol/feedback';
import type { RunnerClient } from '../runner/client';

export async function finishOrAwaitReport(client: RunnerClient): Promise<RunReport> {
  const status = await client.status();
  return status.phase === 'agent' ? client.finish() : client.awaitReport();
}
