/** Ending a run an agent drove: finish it if the agent left it open, else wait for the runner's own finish. */
import type { RunReport } from '../protocol/feedback';
import type { RunnerClient } from '../runner/client';

export async function finishOrAwaitReport(client: RunnerClient): Promise<RunReport> {
  const status = await client.status();
  if (status.phase === 'agent') return client.finish();
  return new Promise<RunReport>((resolve, reject) => {
    const onCompleted = ({ report }: { report: RunReport }): void => done(() => resolve(report));
    const onClose = (): void => done(() => reject(new Error('the runner closed the connection while it finished the run')));
    const done = (then: () => void): void => {
      client.off('run.completed', onCompleted);
      client.off('close', onClose);
      then();
    };
    client.on('run.completed', onCompleted);
    client.on('close', onClose);
    // Listening first, then asking, so a report completed in between is not missed.
    client.report().then(
      (r) => r && done(() => resolve(r)),
      (e: unknown) => done(() => reject(e)),
    );
  });
}
