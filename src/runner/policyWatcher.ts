/**
 * Tells the run when `policy/` changed, so it can build the new policy before the submit that
 * will ask for it (see Run.prebuild). Best effort: where watching fails (no inotify watches
 * left, a folder removed and made again) nothing breaks, a submit just builds for itself.
 */
import * as fs from 'node:fs';

/** Saves come in bursts (an editor writes, renames, touches): one build after the last. */
const SETTLE_MS = 25;

export interface PolicyWatcher {
  close(): void;
}

export function watchPolicy(dir: string, onChange: () => void): PolicyWatcher {
  let timer: NodeJS.Timeout | undefined;
  let watcher: fs.FSWatcher | undefined;
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
    timer.unref();
  };
  try {
    watcher = fs.watch(dir, { recursive: true, persistent: false }, changed);
  } catch {
    try {
      // No recursive watching on this platform or Node: the top level is where the policy usually is.
      watcher = fs.watch(dir, { persistent: false }, changed);
    } catch {
      watcher = undefined;
    }
  }
  watcher?.on('error', () => watcher?.close());
  return {
    close() {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
