/** A progress bar for long runner work (submit, validation, assessment), only on an interactive terminal. */
import { SingleBar, Presets } from 'cli-progress';
import type { RunnerClient } from '../../runner/client';
import type { ProgressNotification } from '../../protocol/run';
import { progressLabel, progressText } from '../../stats/progressText';

/** `only`: the phases to show (a submit shows its own episodes; the end of the run it may start follows its feedback). */
export function attachProgress(client: RunnerClient, enabled: boolean, only?: (p: ProgressNotification) => boolean): () => void {
  if (!enabled) return () => undefined;
  if (!process.stderr.isTTY) return attachProgressLines(client, only);
  let bar: SingleBar | null = null;
  let phase = '';
  // Validation counts candidates too: the bar is episodes, the candidates follow it.
  const payload = (p: ProgressNotification): { candidates: string } => ({ candidates: p.phase === 'validation' && p.candidates ? `, ${p.candidates.done}/${p.candidates.total} candidates` : '' });
  const onProgress = (p: ProgressNotification): void => {
    if (only && !only(p)) return;
    const label = progressLabel(p);
    if (!bar || phase !== label) {
      bar?.stop();
      phase = label;
      bar = new SingleBar({ format: `${label.padEnd(14)} [{bar}] {value}/{total} episodes{candidates}`, stream: process.stderr, hideCursor: true, clearOnComplete: false }, Presets.shades_classic);
      bar.start(p.total, p.done, payload(p));
    } else bar.update(p.done, payload(p));
  };
  client.on('run.progress', onProgress);
  return () => {
    client.off('run.progress', onProgress);
    bar?.stop();
  };
}

/**
 * Without a terminal (an agent's shell tool, a log), the finish still says what it is doing: a
 * line when a phase starts, each time a candidate's validation completes, and when a phase ends.
 * A submit's episodes print nothing here; its summary follows at once.
 */
function attachProgressLines(client: RunnerClient, only?: (p: ProgressNotification) => boolean): () => void {
  let last = '';
  const onProgress = (p: ProgressNotification): void => {
    if (p.phase === 'submit' || (only && !only(p))) return;
    const key = p.phase === 'validation' ? `${p.phase}/${p.candidates?.done ?? 0}` : `${progressLabel(p)}/${p.done === 0 ? 'start' : p.done === p.total ? 'end' : ''}`;
    if (key === last || key.endsWith('/')) return;
    last = key;
    process.stderr.write(`${progressText(p)}\n`);
  };
  client.on('run.progress', onProgress);
  return () => client.off('run.progress', onProgress);
}
