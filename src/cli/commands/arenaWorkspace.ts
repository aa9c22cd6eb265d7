/**
 * Whether the run workspace at or above a folder is an arena run (its frozen run.json has arena
 * options): the client commands send such a run's verbs to the `arena.*` methods. Reads one small
 * file and imports nothing heavy, since `status` and `feedback` start from the quick bundle.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findWorkspace } from './runClient';

export function isArenaWorkspace(dir: string | undefined): boolean {
  const workspace = findWorkspace(dir ?? process.cwd());
  if (!workspace) return false;
  try {
    const run = JSON.parse(fs.readFileSync(path.join(workspace, '.policyforge', 'run.json'), 'utf8')) as { arena?: unknown };
    return typeof run.arena === 'object' && run.arena !== null;
  } catch {
    // An unreadable run.json: the ordinary path reports it.
    return false;
  }
}
