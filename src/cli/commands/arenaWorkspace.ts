/**
 * Whether the run workspace at or above a folder is an arena run (its frozen run.json has arena
 * options): the client commands send such a run's verbs to the `arena.*` methods. Reads one small
 * file and imports nothing heavy, since `status` and `feedback` start from the quick bundle.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ArenaOptions } from '../../protocol/arena';
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

/** What `init` prints for a new arena run. */
export function arenaInitText(envId: string, budget: number, a: ArenaOptions, dir: string, files: readonly string[]): string {
  return (
    `created ${envId} arena run in ${dir}\n` +
    `  budget ${budget} games; each submission: screen ${a.screenGames} games per pool opponent (pass at points rate ${a.screenPass}), then deep ${a.deepGames} games; promotion into the pool at deep points rate ≥ ${(0.5 + a.promotionMargin).toFixed(2)}; pool of at most ${a.maxPool}\n` +
    `  files: ${files.join(', ')}\n` +
    'next: edit policy/policy.ts, then `policyforge submit` (read AGENTS.md)\n'
  );
}
