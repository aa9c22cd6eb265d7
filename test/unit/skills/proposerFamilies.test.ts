/**
 * The proposer on BabyAI, Box2D and MuJoCo, fed the skill rates of a real short run (a scripted
 * policy on the real environment, tracked as the sandbox tracks it): the weakest skill the task
 * needs leads to a configuration that isolates it, inside the declared bounds, that the
 * environment accepts and runs, and the practice environment really is the easier one.
 */
import { strict as assert } from 'node:assert';
import { createRegistry } from '../../../src/envs';
import { CarRacingEnv } from '../../../src/envs/box2d/carRacing';
import { checkTrainingParams } from '../../../src/envs/core/trainingCheck';
import type { InstrSpec } from '../../../src/envs/minigrid/babyai/instr';
import type { SkillRate } from '../../../src/protocol/skills';
import { declaredSkills } from '../../../src/skills';
import { proposeConfig, type Proposal } from '../../../src/skills/training/proposer';
import { lcg, realRun } from './realRun';

const registry = createRegistry();

function propose(id: string, rates: readonly SkillRate[], params: Record<string, unknown> = {}): Proposal {
  const made = registry.make(id, params);
  const p = proposeConfig(made.definition, made.params, rates);
  const checked = checkTrainingParams(made.definition, made.params, p.config.params);
  assert.ok(checked.ok, `${id}: ${JSON.stringify(p.config.params)} is inside the declared bounds`);
  assert.doesNotThrow(() => registry.make(id, checked.ok ? checked.params : {}), `${id} makes the proposed configuration`);
  assert.equal(p.reason.replace(/\.$/, '').split('. ').length, 1, 'one sentence');
  return p;
}

const rateOf = (rates: readonly SkillRate[], id: string): number => rates.find((r) => r.id === id)?.mean ?? NaN;

/** The verbs of an instruction tree. */
function verbs(i: InstrSpec): string[] {
  return 'a' in i ? [...verbs(i.a), ...verbs(i.b)] : [i.op];
}

describe('the proposer on BabyAI, Box2D and MuJoCo, from real short runs', function () {
  this.timeout(120_000);

  it('BabyAI GoToLocal: a random walker misses go-to sub-goals, so a smaller room with fewer distractors', async () => {
    const rnd = lcg(7);
    const run = await realRun(registry, 'BabyAI-GoToLocalS8N7-v0', {}, () => Math.floor(rnd() * 3), 8);
    const goto = rateOf(run.rates, 'subgoal_goto');
    assert.ok(goto < 0.8, `random walking reaches the object in ${goto} of episodes`);
    const p = propose('BabyAI-GoToLocalS8N7-v0', run.rates);
    assert.equal(p.skill?.id, 'subgoal_goto', 'a key lying about as a distractor is not the task');
    assert.ok((p.config.params['room_size'] as number) < 8 && (p.config.params['num_dists'] as number) < 7, JSON.stringify(p.config.params));
    assert.match(p.reason, /smaller rooms and fewer distractors/);
  });

  it('BabyAI BossLevel: the weakest verb alone, single instructions, and every practice mission is that verb', async () => {
    const rnd = lcg(11);
    const run = await realRun(registry, 'BabyAI-BossLevel-v0', {}, () => Math.floor(rnd() * 6), 4);
    const p = propose('BabyAI-BossLevel-v0', run.rates);
    const verb = p.skill!.id.replace('subgoal_', '');
    assert.ok(['goto', 'open', 'pickup', 'putnext'].includes(verb), p.skill!.id);
    assert.equal(p.config.params['action_kinds'], verb);
    if (p.skill!.mean < 0.5) assert.equal(p.config.params['instr_kinds'], 'action');
    const made = registry.make('BabyAI-BossLevel-v0', p.config.params);
    for (let seed = 0; seed < 6; seed++) {
      const mission = (made.env.reset({ seed }).info as { mission: InstrSpec }).mission;
      assert.ok(verbs(mission).every((v) => v === verb), `seed ${seed}: ${JSON.stringify(mission)}`);
    }
  });

  it('BabyAI GoTo maze: one small room at rate 0, growing back toward the 3×3 maze as the rate rises', () => {
    const at = (r: number): Record<string, unknown> => propose('BabyAI-GoTo-v0', [{ id: 'subgoal_goto', label: 'goto', kind: 'success', mean: r, stderr: 0.1, count: 8 }]).config.params;
    assert.deepEqual(at(0), { room_size: 4, num_rows: 1, num_cols: 1, num_dists: 1 });
    const mid = at(0.5);
    assert.ok((mid['num_rows'] as number) >= 2 && mid['doors_open'] === undefined, JSON.stringify(mid));
    assert.deepEqual(at(0.3)['doors_open'], true, 'doors open while going to objects is weak and there are doors');
  });

  it('LunarLander: a lander that crashes practises without wind, a gentler start push and weaker gravity', async () => {
    const rnd = lcg(3);
    const run = await realRun(registry, 'LunarLander-v3', { enable_wind: true }, () => Math.floor(rnd() * 4), 4);
    assert.ok(rateOf(run.rates, 'avoided_crash') < 0.8);
    const p = propose('LunarLander-v3', run.rates, { enable_wind: true });
    assert.equal(p.skill?.id, 'avoided_crash');
    assert.equal(p.config.params['enable_wind'], false);
    assert.ok((p.config.params['initial_random'] as number) < 1000 && (p.config.params['gravity'] as number) > -10, JSON.stringify(p.config.params));
    // With no push at all the lander starts with no sideways speed: the start really is calmer.
    const calm = registry.make('LunarLander-v3', { initial_random: 0 });
    const o = calm.env.reset({ seed: 5 }).observation as ArrayLike<number>;
    assert.ok(Math.abs(o[2]!) < 1e-3, `vx ${o[2]}`);
  });

  it('BipedalWalkerHardcore: a walker that falls practises without the obstacles on smoother ground', async () => {
    const rnd = lcg(5);
    const run = await realRun(registry, 'BipedalWalkerHardcore-v3', {}, () => [0, 1, 2, 3].map(() => rnd() * 2 - 1), 2);
    assert.ok(rateOf(run.rates, 'stayed_up') < 0.5);
    const p = propose('BipedalWalkerHardcore-v3', run.rates);
    assert.equal(p.skill?.id, 'stayed_up');
    assert.equal(p.config.params['hardcore'], false);
    assert.ok((p.config.params['terrain_roughness'] as number) < 1);
    // Once it stays up more often the obstacles return, further apart.
    const later = propose('BipedalWalkerHardcore-v3', [{ ...run.rates.find((r) => r.id === 'stayed_up')!, mean: 0.6 }]);
    assert.equal(later.config.params['hardcore'], undefined);
    assert.ok((later.config.params['obstacle_spacing'] as number) > 1, JSON.stringify(later.config.params));
  });

  it('CarRacing: a car that never finishes practises on gentler tracks that count a lap sooner', async () => {
    const car = new CarRacingEnv({ continuous: true, domainRandomize: false, lapCompletePercent: 0.95, skipFrames: true });
    const run = await realRun(registry, 'CarRacing-v3', {}, () => [0, 0.1, 0], 1, { env: car });
    assert.equal(rateOf(run.rates, 'finished_lap'), 0);
    const p = propose('CarRacing-v3', run.rates);
    assert.deepEqual(p.config.params, { track_turn_rate: 0.15, lap_complete_percent: 0.5 });
  });

  it('Hopper: a hopper that falls practises from calmer starts with looser health limits', async () => {
    const run = await realRun(registry, 'Hopper-v5', {}, () => [0, 0, 0], 3);
    assert.ok(rateOf(run.rates, 'stayed_healthy') < 0.8);
    const p = propose('Hopper-v5', run.rates);
    assert.equal(p.skill?.id, 'stayed_healthy');
    assert.ok((p.config.params['reset_noise_scale'] as number) < 5e-3);
    assert.ok((p.config.params['healthy_angle_range_max'] as number) > 0.2 && (p.config.params['healthy_angle_range_min'] as number) < -0.2, JSON.stringify(p.config.params));
    assert.match(p.reason, /looser health limits/);
  });

  it('Reacher and Fetch: arms that miss practise on nearer goals (Fetch: a wider success distance)', async () => {
    const still = await realRun(registry, 'Reacher-v5', {}, () => [0, 0], 4);
    assert.deepEqual(still.rates.map((r) => r.id), ['reached_target']);
    assert.deepEqual(propose('Reacher-v5', still.rates).config.params, { target_radius: 0.1 });
    const fetch = await realRun(registry, 'FetchPush-v4', {}, () => [0, 0, 0, 0], 3);
    assert.deepEqual(fetch.rates.map((r) => [r.id, r.mean]), [['reached_goal', 0]]);
    const p = propose('FetchPush-v4', fetch.rates);
    assert.deepEqual(p.config.params, { target_range: 0.02, obj_range: 0.1, distance_threshold: 0.1 });
    // The practice goal is drawn within 2 cm (per axis) of its centre, and success counts within 10 cm.
    const practice = registry.make('FetchPush-v4', p.config.params);
    await registry.prepare('FetchPush-v4');
    const obs = practice.env.reset({ seed: 1 }).observation as { desired_goal: ArrayLike<number> };
    const plain = registry.make('FetchPush-v4').env.reset({ seed: 1 }).observation as { desired_goal: ArrayLike<number> };
    assert.notDeepEqual(Array.from(obs.desired_goal), Array.from(plain.desired_goal));
  });

  it('every proposal for every BabyAI, Box2D and MuJoCo id with knobs stays in bounds, and its world generates', async () => {
    const ids = registry
      .list()
      .filter((d) => d.training && (d.id.startsWith('BabyAI-') || d.family.startsWith('box2d/') || d.family === 'mujoco'))
      .map((d) => d.id);
    assert.ok(ids.length > 60, `${ids.length} ids declare knobs`);
    for (const id of ids) {
      const made = registry.make(id);
      const skills = declaredSkills(id, made.definition.family).filter((s) => s.kind !== 'steps');
      for (const focus of skills) {
        for (const r of [0, 0.33, 0.79]) {
          const rates = skills.map((s): SkillRate => ({ id: s.id, label: s.label, kind: s.kind, mean: s.id === focus.id ? r : 1, stderr: 0, count: 8 }));
          const p = propose(id, rates);
          // BabyAI generates its world at reset: a configuration it could not lay out would hang here.
          if (id.startsWith('BabyAI-') || id.startsWith('LunarLander')) registry.make(id, p.config.params).env.reset({ seed: 3 });
        }
      }
    }
  });
});
