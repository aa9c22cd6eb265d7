/** Ctrl-C while the runner plays a submit: shared by the single-agent and the arena `submit`. */
import type { RunnerClient } from '../../runner/client';

/**
 * Ctrl-C during a submit asks the runner to cancel it (`run.cancel`): the submit then fails with
 * `cancelled`, rolled back and uncharged, and the command exits as for any refused submit. The
 * runner is a process of its own, so leaving without asking would let the episodes go on and be
 * charged. A second Ctrl-C leaves at once. Returns the function that stops listening.
 */
export function cancelOnInterrupt(client: RunnerClient, json: boolean): () => void {
  let asked = false;
  const onInterrupt = (): void => {
    if (asked) process.exit(130);
    asked = true;
    if (!json) process.stderr.write('\ncancelling the submit (Ctrl-C again to leave without waiting)…\n');
    client.cancel().catch(() => undefined);
  };
  process.on('SIGINT', onInterrupt);
  return () => process.off('SIGINT', onInterrupt);
}
