/**
 * `run.progress` as MCP progress notifications for one tool call: sent only when the client asked
 * for them with a progress token, each carrying the episodes done, the total and the line every
 * surface prints (src/stats/progressText.ts).
 */
import type { ProgressNotification } from '../../protocol/run';
import type { RunnerClient } from '../../runner/client';
import { progressBatch, progressText } from '../../stats/progressText';

/** The parts of the SDK's request context the forwarding needs. */
export interface ProgressContext {
  _meta?: { progressToken?: string | number };
  sendNotification(n: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; total?: number; message?: string } }): Promise<void>;
}

/** Forwards the runner's progress to the MCP client until the returned function is called. */
export function forwardProgress(client: RunnerClient, extra: ProgressContext): () => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => undefined;
  // MCP wants progress to increase across the call, while the runner counts per phase: count
  // the episodes of the phases already finished too.
  let before = 0;
  let phase = '';
  let lastDone = 0;
  const onProgress = (p: ProgressNotification): void => {
    const key = progressBatch(p);
    if (key !== phase) {
      before += lastDone;
      phase = key;
    }
    lastDone = p.done;
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: before + p.done, message: progressText(p) } }).catch(() => undefined);
  };
  client.on('run.progress', onProgress);
  return () => client.off('run.progress', onProgress);
}
