/**
 * One runner per workspace: `.policyforge/runner.lock` is created exclusively with the owner's
 * pid. A lock whose pid is dead (a crashed or killed runner) is taken over.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { processAlive } from './runnerFile';

export type LockResult = { ok: true; release(): void } | { ok: false; pid: number };

export function acquireRunnerLock(stateDir: string): LockResult {
  const file = path.join(stateDir, 'runner.lock');
  fs.mkdirSync(stateDir, { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return {
        ok: true,
        release: () => {
          try {
            if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
          } catch {
            // already gone
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let owner = NaN;
    try {
      owner = Number(fs.readFileSync(file, 'utf8').trim());
    } catch {
      continue; // removed meanwhile: retry
    }
    if (owner === process.pid) return { ok: true, release: () => fs.rmSync(file, { force: true }) };
    if (Number.isInteger(owner) && owner > 0 && processAlive(owner)) return { ok: false, pid: owner };
    // Stale: the owner died without cleaning up.
    fs.rmSync(file, { force: true });
  }
  return { ok: false, pid: NaN };
}
