/**
 * Every registered environment's starter workspace builds and evaluates in the sandbox with
 * status ok, and the `policyforge eval` command works end to end.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { createRegistry } from '../../../src/envs';
import { starterFiles } from '../../../src/envs/core/starterFiles';
import { buildBundle, SandboxPool } from '../../../src/sandbox';
import { planModule } from '../../../src/sandbox/worker/modulePlan';
import { ensureCliBuilt, ensureWorkerBuilt, episodes, removeWorkspaces, workspace } from './helpers';

const repo = path.resolve(__dirname, '../../..');
const cli = path.join(repo, 'bin', 'policyforge.js');
const run = promisify(execFile);

describe('sandbox: starter policies of every environment', function () {
  this.timeout(300_000);
  let pool: SandboxPool;
  before(() => {
    ensureWorkerBuilt();
    ensureCliBuilt();
    pool = new SandboxPool({ workers: 2 });
  });
  after(async () => {
    await pool.close();
    removeWorkspaces();
  });

  const registry = createRegistry();
  const defs = registry.list();
  // The default act limit: the worker's set-up of an episode (environment, realm) is not the
  // policy's time. What is checked is that every starter runs, not how fast a whole episode is:
  // CarRacing's 1000 rendered steps take more than the default 30 s when every core is busy.
  const EPISODE_TIMEOUT_MS = 120_000;

  it('registers environments to check', () => assert.ok(defs.length >= 5));

  it('every starter builds, shares its module across episodes and runs 2 episodes with status ok', async () => {
    const failures: string[] = [];
    await Promise.all(
      defs.map(async (def) => {
        const made = registry.make(def.id);
        const built = await buildBundle(workspace(starterFiles(def, made.params, made.env)), { typeCheck: false });
        if (!built.ok) return void failures.push(`${def.id}: build: ${built.diagnostics.map((d) => d.message).join('; ')}`);
        // A starter is where every workspace begins: it should get the fast path (one module per realm).
        const plan = planModule(built.bundle.code);
        if (!plan.reuse) failures.push(`${def.id}: module runs per episode: ${plan.reason}`);
        const records = await pool.runBatch({ bundle: built.bundle, envId: def.id, params: {}, episodes: episodes(2), limits: { maxTrajectorySteps: 0, episodeTimeoutMs: EPISODE_TIMEOUT_MS } });
        for (const r of records) if (r.status !== 'ok') failures.push(`${def.id} case ${r.caseIndex}: ${r.status}: ${r.error?.message ?? ''}`);
      }),
    );
    assert.deepEqual(failures, []);
  });

  it('the first starter of each family type-checks against its generated env.d.ts', async () => {
    const firstOfFamily = new Map<string, (typeof defs)[number]>();
    for (const d of defs) if (!firstOfFamily.has(d.family.split('/')[0] ?? d.family)) firstOfFamily.set(d.family.split('/')[0] ?? d.family, d);
    for (const def of firstOfFamily.values()) {
      const made = registry.make(def.id);
      const built = await buildBundle(workspace(starterFiles(def, made.params, made.env)));
      assert.ok(built.ok, def.id);
      assert.deepEqual(built.diagnostics.filter((d) => d.kind === 'type').map((d) => `${d.file}:${d.line} ${d.message}`), [], def.id);
    }
  });

  it('policyforge eval --starter prints the summary table, and --json the records', async () => {
    const table = await run(process.execPath, [cli, 'eval', '--env', 'CartPole-v1', '--starter', '--episodes', '4', '--seed', '7', '--skip-typecheck']);
    assert.match(table.stdout, /CartPole-v1 {2}4 episodes {2}seed 7/);
    assert.match(table.stdout, /return mean [\d.]+ ± [\d.]+/);
    assert.match(table.stdout, /status ok 4/);
    const json = await run(process.execPath, [cli, 'eval', '--env', 'CartPole-v1', '--starter', '--episodes', '4', '--seed', '7', '--skip-typecheck', '--json']);
    const parsed = JSON.parse(json.stdout) as { stats: { count: number }; statusCounts: Record<string, number>; episodes: { caseIndex: number }[] };
    assert.equal(parsed.stats.count, 4);
    assert.deepEqual(parsed.statusCounts, { ok: 4 });
    // The same seed gives the same episodes.
    const again = JSON.parse((await run(process.execPath, [cli, 'eval', '--env', 'CartPole-v1', '--starter', '--episodes', '4', '--seed', '7', '--skip-typecheck', '--json'])).stdout) as typeof parsed;
    assert.deepEqual(again.stats, parsed.stats);
  });

  it('policyforge eval evaluates a policy folder and names bad arguments', async () => {
    const root = workspace({ 'policy/policy.ts': 'export class Policy { act(o: Float64Array): number { return o[2]! + 0.5 * o[3]! > 0 ? 1 : 0; } }\n' });
    const ok = await run(process.execPath, [cli, 'eval', '--env', 'CartPole-v1', '--policy', path.join(root, 'policy'), '--episodes', '2', '--skip-typecheck']);
    assert.match(ok.stdout, /status ok 2/);
    const bad = async (args: string[]): Promise<string> => {
      try {
        await run(process.execPath, [cli, 'eval', ...args]);
      } catch (e) {
        const err = e as { code: number; stderr: string };
        assert.equal(err.code, 2, err.stderr);
        return err.stderr;
      }
      throw new Error(`expected eval ${args.join(' ')} to fail`);
    };
    assert.match(await bad(['--starter']), /--env is required/);
    assert.match(await bad(['--env', 'CartPol-v1', '--starter']), /--env: unknown environment "CartPol-v1"/);
    assert.match(await bad(['--env', 'CartPole-v1', '--starter', '--episodes', '0']), /--episodes must be at least 1/);
    assert.match(await bad(['--env', 'CartPole-v1', '--starter', '--param', 'gravity=2']), /--param: .*"gravity" is unknown/);
    assert.match(await bad(['--env', 'CartPole-v1', '--policy', path.join(root, 'nope')]), /--policy .*no such folder/);
  });
});
