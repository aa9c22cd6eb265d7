/** The command line a workspace's agent types to reach the `policyforge` CLI that made it. */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The absolute path of this installation's `bin/policyforge.js`: beside `dist/` in the bundles
 * (CLI and extension), two folders up from this source file under tsx.
 */
export function launcherPath(): string | undefined {
  const candidates = [path.join(__dirname, '..', 'bin', 'policyforge.js'), path.join(__dirname, '..', '..', 'bin', 'policyforge.js')];
  return candidates.find((c) => fs.existsSync(c));
}

/**
 * `policyforge` when that name on PATH is the same installation as `launcher` (an `npm install -g`
 * or `npm link` of this package), else `node <launcher>`: a workspace made from a clone that was
 * never installed still names a command that works. `launcher` is the absolute path of
 * `bin/policyforge.js`; without one the bare name is all there is to say.
 */
export function policyforgeCommand(launcher: string | undefined = launcherPath(), env: NodeJS.ProcessEnv = process.env): string {
  if (!launcher) return 'policyforge';
  const target = realpath(launcher);
  const names = process.platform === 'win32' ? ['policyforge.cmd', 'policyforge.exe', 'policyforge'] : ['policyforge'];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      if (realpath(path.join(dir, name)) === target) return 'policyforge';
    }
  }
  const node = /[\s"'$`\\]/.test(launcher) ? JSON.stringify(launcher) : launcher;
  return `node ${node}`;
}

function realpath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}
