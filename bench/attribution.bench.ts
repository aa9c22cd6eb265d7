/**
 * What attribution costs: the same batch through the full sandbox with coverage probes (and the
 * runner's ranking of them, src/stats/attribution.ts) and without, in alternating rounds so both
 * see the same moments of the machine's load. Two policies: a CartPole controller with a branch
 * or two per step (short act calls, where a counter write weighs most) and the DoorKey policy of
 * the attribution fixture (view scans, several functions per step). Target: at most 1.5×.
 *
 * Then the same episodes worker side, in this process: each episode's best time over rounds with
 * and without probes, in turns. A busy machine rarely spares a whole batch a preemption, a
 * single short episode often: these rows hold still where the batch rows swing.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MINIGRID_POLICY_MODULE } from '../src/envs/minigrid/policyFiles';
import type { EpisodeRecord } from '../src/protocol/episodes';
import { createRegistry } from '../src/envs';
import { buildBundle, bundleProbes, DEFAULT_EPISODE_LIMITS, SandboxPool, type EpisodeSpec, type PolicyBundle } from '../src/sandbox';
import { runEpisode } from '../src/sandbox/worker/episode';
import { loadBundle } from '../src/sandbox/worker/loadedBundle';
import { attributeEpisodes } from '../src/stats/attribution';
import type { BenchModule, BenchTable } from './harness';

const EPISODES = 128;
const WARM_ROUNDS = 5;
const ROUNDS = 20;

const CARTPOLE_POLICY = `export class Policy {
  private last = 0;
  act(o: Float64Array): number {
    const lean = o[2]! + 0.5 * o[3]!;
    let push: number;
    if (Math.abs(lean) < 0.01) {
      push = this.last;
    } else if (lean > 0) {
      push = 1;
    } else {
      push = 0;
    }
    if (o[0]! > 1.5 && o[1]! > 0) push = 0;
    this.last = push;
    return push;
  }
}
`;

interface Case {
  name: string;
  envId: string;
  files: Record<string, string>;
}

const CASES: readonly Case[] = [
  { name: 'CartPole-v1 branchy controller', envId: 'CartPole-v1', files: { 'policy/policy.ts': CARTPOLE_POLICY } },
  {
    name: 'MiniGrid-DoorKey-5x5 fixture policy',
    envId: 'MiniGrid-DoorKey-5x5-v0',
    files: { 'policy/policy.ts': readFileSync(path.join(__dirname, '..', 'test', 'fixtures', 'attribution', 'doorKeyBug.ts'), 'utf8'), 'policy/minigrid.ts': MINIGRID_POLICY_MODULE },
  },
];

const specs: EpisodeSpec[] = Array.from({ length: EPISODES }, (_, i) => ({ caseIndex: i, envSeed: 5000 + i, policySeed: i }));

async function bundleOf(parent: string, c: Case): Promise<PolicyBundle> {
  const root = path.join(parent, c.envId);
  for (const [rel, text] of Object.entries(c.files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  const built = await buildBundle(root, { typeCheck: false });
  if (!built.ok) throw new Error(`${c.name}: ${built.diagnostics.map((d) => d.message).join('; ')}`);
  return built.bundle;
}

/** One batch; with coverage, also the time to find the probes and rank them, as the runner does per submission. */
async function batch(pool: SandboxPool, bundle: PolicyBundle, envId: string, coverage: boolean): Promise<{ ms: number; rankMs: number; records: EpisodeRecord[] }> {
  const t0 = process.hrtime.bigint();
  const records = await pool.runBatch({ bundle, envId, params: {}, episodes: specs, limits: { maxTrajectorySteps: 0, coverage } });
  const t1 = process.hrtime.bigint();
  if (coverage) attributeEpisodes(bundleProbes(bundle.code).probes, records.map((r) => ({ status: r.status, score: r.return, ...(r.coverage ? { coverage: r.coverage } : {}) })));
  return { ms: Number(t1 - t0) / 1e6, rankMs: Number(process.hrtime.bigint() - t1) / 1e6, records };
}

async function measure(table: BenchTable, pool: SandboxPool, bundle: PolicyBundle, c: Case): Promise<void> {
  let plainMs = Infinity;
  let coveredMs = Infinity;
  let withRankingMs = Infinity;
  let steps = 0;
  for (let round = -WARM_ROUNDS; round < ROUNDS; round++) {
    // Alternate which goes first, so neither always follows the other's garbage.
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const coverage of order) {
      const { ms, rankMs, records } = await batch(pool, bundle, c.envId, coverage);
      const s = records.reduce((a, r) => a + r.length, 0);
      if (steps !== 0 && s !== steps) throw new Error(`${c.name}: ${s} steps with coverage ${coverage}, ${steps} otherwise: coverage changed an outcome`);
      steps = s;
      if (coverage && !records.every((r) => r.coverage !== undefined)) throw new Error(`${c.name}: a record without coverage`);
      if (round < 0) continue;
      if (!coverage) plainMs = Math.min(plainMs, ms);
      else {
        coveredMs = Math.min(coveredMs, ms);
        withRankingMs = Math.min(withRankingMs, ms + rankMs);
      }
    }
  }
  process.stdout.write(`${c.name}: ${EPISODES} episodes, ${steps} steps per batch, ${bundleProbes(bundle.code).probes.length} probes\n`);
  table.duration(`attribution: ${c.name}, batch`, coveredMs, 'ms', 'no coverage', plainMs);
  table.duration(`attribution: ${c.name}, batch + ranking`, withRankingMs, 'ms', 'no coverage', plainMs, '≤ 1.5×');
}

/** Per-episode best times over rounds, plain and covered in turns (see the header); the sums of the bests. */
function workerSideCosts(bundle: PolicyBundle, envId: string): { plainMs: number; coveredMs: number } {
  const registry = createRegistry();
  const limits = { ...DEFAULT_EPISODE_LIMITS, maxTrajectorySteps: 0 };
  const variants = [
    { coverage: false, loaded: loadBundle(bundle.code), best: specs.map(() => Infinity) },
    { coverage: true, loaded: loadBundle(bundle.code), best: specs.map(() => Infinity) },
  ];
  for (let round = -WARM_ROUNDS; round < ROUNDS; round++) {
    specs.forEach((spec, i) => {
      for (const v of round % 2 === 0 ? variants : [...variants].reverse()) {
        const t0 = process.hrtime.bigint();
        runEpisode({ envId, params: {}, spec, limits: { ...limits, coverage: v.coverage } }, registry, v.loaded, () => {});
        if (round >= 0) v.best[i] = Math.min(v.best[i]!, Number(process.hrtime.bigint() - t0) / 1e6);
      }
    });
  }
  const sum = (a: number[]): number => a.reduce((x, y) => x + y, 0);
  return { plainMs: sum(variants[0]!.best), coveredMs: sum(variants[1]!.best) };
}

export const attributionBench: BenchModule = {
  name: 'attribution',
  async run(table) {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'pf-bench-attribution-'));
    const pool = new SandboxPool();
    try {
      const bundles = new Map<Case, PolicyBundle>();
      for (const c of CASES) bundles.set(c, await bundleOf(parent, c));
      for (const c of CASES) await measure(table, pool, bundles.get(c)!, c);
      for (const c of CASES) {
        const { plainMs, coveredMs } = workerSideCosts(bundles.get(c)!, c.envId);
        table.duration(`attribution: ${c.name}, worker side per episode`, (coveredMs / EPISODES) * 1000, 'µs', 'no coverage', (plainMs / EPISODES) * 1000, '≤ 1.5×');
      }
    } finally {
      await pool.close();
      rmSync(parent, { recursive: true, force: true });
    }
  },
};
