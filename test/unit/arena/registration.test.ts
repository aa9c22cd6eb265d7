/** The arena games in the registry, their workspaces, and the policy's side of the sandbox. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { ArenaSideEnv } from '../../../src/envs/arena/sideEnv';
import type { PerAgent } from '../../../src/envs/core/multiAgent';
import { buildBundle, SandboxPool } from '../../../src/sandbox';
import { cleanupTmp } from '../runner/helpers';
import { makeArenaWorkspace } from './arenaHelpers';

describe('arena games in the registry', function () {
  this.timeout(60_000);
  after(() => cleanupTmp());

  it('lists both games as arena games beside the single-agent environments', () => {
    const defs = createRegistry().list();
    for (const id of ['ConnectFour-v0', 'CaptureTheFlag-v0']) {
      const d = defs.find((x) => x.id === id);
      assert.ok(d, id);
      assert.match(d.description, /^Arena game/);
      assert.match(d.family, /^arena\//);
    }
    assert.equal(defs.filter((d) => !d.family.startsWith('arena/')).length, defs.length - 2);
  });

  it('init makes an arena workspace: budget in games, arena options, a starter driving ctx.ownAgents', () => {
    const dir = makeArenaWorkspace('CaptureTheFlag-v0', 400, { deepGames: 10 });
    const run = JSON.parse(fs.readFileSync(path.join(dir, '.policyforge', 'run.json'), 'utf8')) as { budget: number; arena: Record<string, number> };
    assert.equal(run.budget, 400);
    assert.deepEqual(run.arena, { screenGames: 3, deepGames: 10, screenPass: 0.5, promotionMargin: 0.25, maxPool: 8, validationGames: 6, assessmentGames: 10 });
    assert.match(fs.readFileSync(path.join(dir, 'policy', 'policy.ts'), 'utf8'), /ctx\.ownAgents/);
    const dts = fs.readFileSync(path.join(dir, 'policy', 'env.d.ts'), 'utf8');
    assert.match(dts, /type Observation = Readonly<Record<string, Float64Array>>;/);
    assert.match(dts, /type Action = Record<string, ArrayLike<number>>;/);
    assert.match(dts, /readonly ownAgents: readonly string\[\];/);
    assert.doesNotMatch(dts, /readonly opponent:/, 'the policy never receives params.opponent');
    const c4 = fs.readFileSync(path.join(makeArenaWorkspace('ConnectFour-v0', 40), 'policy', 'env.d.ts'), 'utf8');
    assert.match(c4, /readonly side: "red" \| "yellow";/);
    assert.doesNotMatch(c4, /readonly opponent:/);
  });

  it('a failing opponent loses the game at once, and the step says why', () => {
    const made = createRegistry().make('ConnectFour-v0', { side: 'red', opponent: 0 });
    const env = made.env.inner as ArenaSideEnv;
    env.useOpponent(() => () => {
      throw new Error('opponent broke');
    });
    env.reset({ seed: 1 });
    const r = env.step({ red: 3 } as PerAgent<unknown>);
    assert.equal(r.terminated, true);
    assert.equal(r.info['opponentFailure'], 'opponent broke');
  });

  it('in the sandbox the policy sees its side and agents, never the opponent parameter; ctx.params is what env.d.ts declares', async () => {
    const dir = makeArenaWorkspace('CaptureTheFlag-v0', 10);
    const dts = fs.readFileSync(path.join(dir, 'policy', 'env.d.ts'), 'utf8');
    const block = /readonly params: \{\n([\s\S]*?)\n {2}\};/.exec(dts);
    assert.ok(block, 'env.d.ts declares ctx.params');
    const declared = [...(block[1] ?? '').matchAll(/readonly (\w+):/g)].map((m) => m[1]).sort();
    assert.deepEqual(declared, ['capturesToWin', 'length', 'maxSteps', 'side', 'teamSize', 'width']);
    fs.writeFileSync(
      path.join(dir, 'policy', 'policy.ts'),
      `export class Policy {
  private readonly agents: readonly string[];
  constructor(ctx: PolicyContext) {
    console.log(JSON.stringify({ side: ctx.side, own: ctx.ownAgents, opponent: (ctx.params as Record<string, unknown>)['opponent'] ?? null, params: Object.keys(ctx.params).sort() }));
    this.agents = ctx.ownAgents;
  }
  act(_o: Observation): Action {
    const out: Action = {};
    for (const a of this.agents) out[a] = [0, 0];
    return out;
  }
}
`,
    );
    const built = await buildBundle(dir, { typeCheck: false });
    assert.ok(built.ok);
    const pool = new SandboxPool({ workers: 1 });
    try {
      const [r] = await pool.runBatch({ bundle: built.bundle, envId: 'CaptureTheFlag-v0', params: { side: 'red', opponent: 0, maxSteps: 20 }, episodes: [{ caseIndex: 0, envSeed: 1, policySeed: 2 }], limits: { maxTrajectorySteps: 0 } });
      assert.equal(r?.status, 'ok', r?.error?.message);
      assert.deepEqual(JSON.parse(r!.log.text.trim()), { side: 'red', own: ['red_0', 'red_1'], opponent: null, params: declared });
    } finally {
      await pool.close();
    }
  });
});
