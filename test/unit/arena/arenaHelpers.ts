/** Arena workspaces and policies for the arena runner tests. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { workspacePaths } from '../../../src/runner/paths';
import { secretPath } from '../../../src/runner/secret';
import { initWorkspace } from '../../../src/runner/workspace';
import type { ArenaOptionsInput } from '../../../src/protocol/arena';
import { tmpDir } from '../runner/helpers';

/** The arena journal's events, in order. */
export function arenaEvents(dir: string): { type: string; submission?: number; reason?: string }[] {
  return fs
    .readFileSync(path.join(dir, '.policyforge', 'arena.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string });
}

export function makeArenaWorkspace(envId: 'ConnectFour-v0' | 'CaptureTheFlag-v0', budget: number, arena: ArenaOptionsInput = {}, params: Record<string, number> = {}): string {
  const dir = tmpDir('arena');
  const r = initWorkspace(dir, { envId, budget, params, arena }, createRegistry());
  if (!r.ok) throw new Error(r.error);
  return dir;
}

/**
 * Fixes the run's secret (hence every game seed) so a test's outcomes do not change from run to
 * run. Call after useTempDataDir(), before the runner first opens the workspace.
 */
export function pinArenaSecret(dir: string, hex = 'a7e4a'.padEnd(64, '0')): void {
  const { runId } = JSON.parse(fs.readFileSync(workspacePaths(dir).runJson, 'utf8')) as { runId: string };
  const file = secretPath(runId);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, hex, { mode: 0o600 });
}

/** Connect Four: win at once, else block, else the centre-most legal column (beats random and the weaker built-ins). */
export const STRONG_CONNECT_FOUR = `const ROWS = 6, COLS = 7;
const ORDER = [3, 2, 4, 1, 5, 0, 6];
function landing(b: number[], c: number): number { let r = ROWS - 1; while (r >= 0 && b[r * COLS + c] !== 0) r--; return r; }
function wins(b: number[], c: number, who: number): boolean {
  const row = landing(b, c); if (row < 0) return false;
  const at = (r: number, k: number) => r >= 0 && r < ROWS && k >= 0 && k < COLS && (r === row && k === c ? who : b[r * COLS + k]) === who;
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]] as const) {
    let n = 1;
    for (let i = 1; at(row + dr * i, c + dc * i); i++) n++;
    for (let i = 1; at(row - dr * i, c - dc * i); i++) n++;
    if (n >= 4) return true;
  }
  return false;
}
export class Policy {
  private readonly me: string;
  constructor(ctx: PolicyContext) { this.me = ctx.ownAgents[0]!; }
  act(o: Observation): Action {
    const b = Array.from(o[this.me]!);
    const legal = ORDER.filter((c) => b[0 * COLS + c] === 0);
    const win = legal.find((c) => wins(b, c, 1));
    if (win !== undefined) return { [this.me]: win };
    const block = legal.find((c) => wins(b, c, -1));
    if (block !== undefined) return { [this.me]: block };
    return { [this.me]: legal[0]! };
  }
}
`;

/** Connect Four: always the first column, so it loses by filling it (an illegal move) or to any real player. */
export const WEAK_CONNECT_FOUR = `export class Policy {
  private readonly me: string;
  constructor(ctx: PolicyContext) { this.me = ctx.ownAgents[0]!; }
  act(_o: Observation): Action { return { [this.me]: 0 }; }
}
`;

/** Throws at once: every game is the submission's loss, with the error recorded. */
export const THROWING_POLICY = `export class Policy {
  constructor(_ctx: PolicyContext) {}
  act(_o: Observation): Action { throw new Error('boom from the policy'); }
}
`;
