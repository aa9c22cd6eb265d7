/**
 * The training parameters of BabyAI, Box2D and MuJoCo: their defaults give exactly the episodes
 * recorded before the parameters existed, a configuration outside the bounds is refused naming
 * the parameter and its bounds, a layout the generator could not make is refused when the
 * environment is made, and AGENTS.md lists the knobs.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { agentsMd } from '../../../src/agents/agentsMd';
import { createRegistry } from '../../../src/envs';
import { describeTraining } from '../../../src/envs/core/training';
import { checkTrainingParams } from '../../../src/envs/core/trainingCheck';
import { makeRunConfig } from '../../../src/runner/config';

const FIXTURE = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../fixtures/training/familyDefaults.json'), 'utf8')) as { seeds: number; steps: number; hashes: Record<string, string> };
const plain = (_k: string, v: unknown): unknown => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v);
const registry = createRegistry();

/** Resets and the first steps under a fixed action (BabyAI: turning and moving in turn), hashed. */
async function episodesHash(id: string): Promise<string> {
  await registry.prepare(id);
  const { env } = registry.make(id, {});
  const shape = (env.actionSpace as { shape?: number[] }).shape;
  const h = createHash('sha256');
  for (let seed = 0; seed < FIXTURE.seeds; seed++) {
    const r = env.reset({ seed });
    h.update(JSON.stringify(r.observation, plain));
    h.update(JSON.stringify(r.info ?? null, plain));
    for (let t = 0; t < FIXTURE.steps; t++) {
      const action = id.startsWith('BabyAI') ? t % 3 : shape?.length ? new Array(shape[0]).fill(0.1) : 0;
      const s = env.step(action as never);
      h.update(JSON.stringify([s.observation, s.reward, s.terminated, s.truncated], plain));
      if (s.terminated || s.truncated) break;
    }
    h.update(String(env.stepLimit()));
  }
  return h.digest('hex').slice(0, 32);
}

describe('training parameters of BabyAI, Box2D and MuJoCo', function () {
  this.timeout(180_000);

  it('defaults reproduce the episodes recorded before the parameters existed, for every id that declares knobs', async () => {
    const ids = registry
      .list()
      .filter((d) => d.training && (d.id.startsWith('BabyAI-') || d.family.startsWith('box2d/') || d.family === 'mujoco'))
      .map((d) => d.id);
    assert.deepEqual([...ids].sort(), Object.keys(FIXTURE.hashes).sort(), 'the fixture covers exactly the ids with knobs');
    const changed: string[] = [];
    for (const id of ids) if ((await episodesHash(id)) !== FIXTURE.hashes[id]) changed.push(id);
    assert.deepEqual(changed, []);
  });

  it('refuses values outside the bounds, naming the parameter and its bounds (booleans too)', () => {
    const lander = registry.get('LunarLander-v3');
    const g = checkTrainingParams(lander, {}, { gravity: -15 });
    assert.ok(!g.ok && g.param === 'gravity' && /gravity: number -11\.9\.\.-1/.test(g.message) && /got -15/.test(g.message), JSON.stringify(g));
    const w = checkTrainingParams(lander, {}, { enable_wind: 'yes' });
    assert.ok(!w.ok && w.param === 'enable_wind' && /enable_wind: one of false, true/.test(w.message), JSON.stringify(w));
    assert.ok(checkTrainingParams(lander, {}, { enable_wind: true }).ok);
    const walker = registry.get('BipedalWalker-v3');
    const h = checkTrainingParams(walker, {}, { hardcore: true });
    assert.ok(!h.ok && h.param === 'hardcore' && /may change terrain_roughness: number 0\.\.1\.5; obstacle_spacing: integer 1\.\.4/.test(h.message), JSON.stringify(h));
    const fetch = checkTrainingParams(registry.get('FetchReach-v4'), {}, { obj_range: 0.1 });
    assert.ok(!fetch.ok && fetch.param === 'obj_range', 'FetchReach has no object');
    const babyai = checkTrainingParams(registry.get('BabyAI-BossLevel-v0'), {}, { action_kinds: 'dance' });
    assert.ok(!babyai.ok && /action_kinds: one of all, goto, pickup, open, putnext/.test(babyai.message), JSON.stringify(babyai));
  });

  it('refuses, when made, a BabyAI layout the generator could not lay out, naming the parameter', () => {
    assert.throws(() => registry.make('BabyAI-GoToLocalS5N2-v0', { num_dists: 8 }), /parameter "num_dists" asks for 9 objects and the agent, but 1 room\(s\) of side 5 hold at most 4/);
    assert.throws(() => registry.make('BabyAI-Open-v0', { num_rows: 1, num_cols: 1 }), /parameter "num_cols" gives a maze of one room/);
    assert.throws(() => registry.make('BabyAI-PickupLoc-v0', { action_kinds: 'open' }), /parameter "action_kinds" is open, but this level has one room/);
    // Inside the capacity the level generates and its mission follows the parameters.
    const { env } = registry.make('BabyAI-SynthSeq-v0', { action_kinds: 'putnext', instr_kinds: 'action', num_dists: 4 });
    const mission = (env.reset({ seed: 9 }).info as { mission: { op: string } }).mission;
    assert.equal(mission.op, 'putnext');
  });

  it('AGENTS.md lists the knobs of each new family in its practice section', () => {
    const md = (envId: string): string => {
      const c = makeRunConfig({ envId, budget: 64 });
      assert.ok(c.ok);
      return agentsMd(registry.get(envId), c.config, 'policyforge');
    };
    for (const id of ['BabyAI-GoToLocal-v0', 'BabyAI-BossLevel-v0', 'LunarLander-v3', 'BipedalWalkerHardcore-v3', 'CarRacing-v3', 'Hopper-v5', 'Reacher-v5', 'FetchPickAndPlace-v4']) {
      const text = md(id);
      assert.match(text, /## Practice submits/, id);
      for (const knob of describeTraining(registry.get(id))) assert.ok(text.includes(`- ${knob}`), `${id}: ${knob}`);
    }
    assert.match(md('LunarLander-v3'), /- initial_random: number 0\.\.1500 — Largest component of the random push the lander gets at reset/);
    assert.match(md('FetchPickAndPlace-v4'), /- distance_threshold: number 0\.05\.\.0\.1/);
  });
});
