/** Pins a workspace's run secret, so which hidden seeds its cases get (and so which episodes fail) is the same on every machine. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { workspacePaths } from '../../../src/runner/paths';
import { secretPath } from '../../../src/runner/secret';

export function pinSecret(dir: string, hex: string): void {
  const { runId } = JSON.parse(fs.readFileSync(workspacePaths(dir).runJson, 'utf8')) as { runId: string };
  const file = secretPath(runId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, hex, { mode: 0o600 });
}
