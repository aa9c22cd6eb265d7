/**
 * Scratch runs that a test submits to with the CLI start their runner detached, and it would
 * outlive the suite until its idle exit. SIGTERM lets it close its sandbox workers first.
 */
import { processAlive, readRunnerFile } from '../../../src/runner/runnerFile';

export function stopRunnerOf(workspace: string): void {
  const f = readRunnerFile(workspace);
  if (!f || f.pid === process.pid || !processAlive(f.pid)) return;
  try {
    process.kill(f.pid, 'SIGTERM');
  } catch {
    // Gone between the check and the signal.
  }
}
