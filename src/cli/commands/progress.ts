/** A progress bar for long runner work (submit, validation, assessment), only on an interactive terminal. */
import { SingleBar, Presets } from 'cli-progress';
import type { RunnerClient } from '../../runner/client';
import type { ProgressNotification } from '../../protocol/run';

export function attachProgress(client: RunnerClient, enabled: boolean): () => void {
  if (!enabled || !process.stderr.isTTY) return () => undefined;
  let bar: SingleBar | null = null;
  let phase = '';
  const onProgress = (p: ProgressNotification): void => {
    const label = p.phase === 'submit' ? `submission ${p.submission}` : p.phase;
    if (!bar || phase !== label) {
      bar?.stop();
      phase = label;
      bar = new SingleBar({ format: `${label.padEnd(14)} [{bar}] {value}/{total} episodes`, stream: process.stderr, hideCursor: true, clearOnComplete: false }, Presets.shades_classic);
      bar.start(p.total, p.done);
    } else bar.update(p.done);
  };
  client.on('run.progress', onProgress);
  return () => {
    client.off('run.progress', onProgress);
    bar?.stop();
  };
}
