/**
 * A champion in the sandbox plays from a hardened realm kept across its games in a worker, as a
 * submission does: each game still gets fresh module state and a fresh policy, and a champion
 * that throws only because the realm's built-ins are frozen gets the game played again in an
 * unhardened realm, so it plays as it did when it was a submission.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EpisodeRecord } from '../../../src/protocol/episodes';
import { buildBundle, SandboxPool, type PolicyBundle } from '../../../src/sandbox';
import { cleanupTmp } from '../runner/helpers';
import { makeArenaWorkspace, STRONG_CONNECT_FOUR, WEAK_CONNECT_FOUR } from './arenaHelpers';

async function bundleOf(source: string): Promise<PolicyBundle> {
  const dir = makeArenaWorkspace('ConnectFour-v0', 10);
  fs.writeFileSync(path.join(dir, 'policy', 'policy.ts'), source);
  const built = await buildBundle(dir, { typeCheck: false });
  assert.ok(built.ok, JSON.stringify(built.ok ? '' : built.diagnostics));
  return built.bundle;
}

/** The opponent's failure, if the champion failed: the last step's info says it (sideEnv.ts). */
function opponentFailure(r: EpisodeRecord): string | undefined {
  const steps = r.trajectory.stepsJsonl.split('\n').filter(Boolean);
  const last = steps.length ? (JSON.parse(steps[steps.length - 1]!) as { opponentFailure?: string }) : undefined;
  return last?.opponentFailure;
}

/** Counts games in module state and throws from the second one on if that state were shared between games. */
const COUNTING_CHAMPION = STRONG_CONNECT_FOUR.replace('export class Policy {', 'let gamesSeen = 0;\nexport class Policy {').replace(
  'constructor(ctx: PolicyContext) { this.me = ctx.ownAgents[0]!; }',
  "constructor(ctx: PolicyContext) { this.me = ctx.ownAgents[0]!; gamesSeen++; if (gamesSeen > 1) throw new Error('module state leaked from another game'); }",
);

/** Adds a method to Array.prototype at load: frozen in a hardened realm, so it throws there (strict code). */
const PATCHING_CHAMPION = `${STRONG_CONNECT_FOUR.replace('const b = Array.from(o[this.me]!);', 'const b = (Array.from(o[this.me]!) as number[] & { pfCopy(): number[] }).pfCopy();')}
(Array.prototype as unknown as { pfCopy: () => unknown[] }).pfCopy = function (this: unknown[]) { return this.slice(); };
`;

describe('arena champions in the sandbox', function () {
  this.timeout(120_000);
  let pool: SandboxPool;
  before(() => {
    pool = new SandboxPool({ workers: 1 });
  });
  after(async () => {
    await pool.close();
    cleanupTmp();
  });

  const play = async (submission: PolicyBundle, champion: PolicyBundle, games: number): Promise<EpisodeRecord[]> =>
    pool.runBatch({
      bundle: submission,
      opponent: champion,
      envId: 'ConnectFour-v0',
      params: { side: 'yellow', opponent: -1 },
      episodes: Array.from({ length: games }, (_, i) => ({ caseIndex: i, envSeed: 100 + i, policySeed: 200 + i })),
      limits: { maxTrajectorySteps: 1000, recordSnapshots: true },
    });

  it('each game of a champion has fresh module state, in one worker', async () => {
    const records = await play(await bundleOf(WEAK_CONNECT_FOUR), await bundleOf(COUNTING_CHAMPION), 6);
    assert.deepEqual(records.map((r) => [r.status, opponentFailure(r) ?? null]), Array.from({ length: 6 }, () => ['ok', null]));
    assert.ok(records.every((r) => r.return < 0), 'the champion beat the column-0 player every game');
  });

  it('a champion plays in a hardened realm: its built-ins are frozen', async () => {
    const checking = STRONG_CONNECT_FOUR.replace(
      'constructor(ctx: PolicyContext) { this.me = ctx.ownAgents[0]!; }',
      "constructor(ctx: PolicyContext) { this.me = ctx.ownAgents[0]!; if (!Object.isFrozen(Array.prototype)) throw new Error('an unhardened realm'); }",
    );
    const records = await play(await bundleOf(WEAK_CONNECT_FOUR), await bundleOf(checking), 3);
    assert.deepEqual(records.map((r) => opponentFailure(r) ?? null), [null, null, null]);
  });

  it('a champion that throws on frozen built-ins plays the game again unhardened, and wins it', async () => {
    const records = await play(await bundleOf(WEAK_CONNECT_FOUR), await bundleOf(PATCHING_CHAMPION), 3);
    assert.deepEqual(records.map((r) => [r.status, opponentFailure(r) ?? null]), Array.from({ length: 3 }, () => ['ok', null]));
    assert.ok(records.every((r) => r.return < 0), JSON.stringify(records.map((r) => r.return)));
  });

  it('a champion that really fails loses the game, with its error', async () => {
    const broken = STRONG_CONNECT_FOUR.replace('act(o: Observation): Action {', "act(o: Observation): Action { if (o) throw new Error('champion broke');");
    const records = await play(await bundleOf(WEAK_CONNECT_FOUR), await bundleOf(broken), 2);
    for (const r of records) {
      assert.equal(r.status, 'ok');
      assert.match(opponentFailure(r) ?? '', /the champion's act\(\) threw: .*champion broke/);
    }
  });
});
