import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { EnvOrderError } from '../../../src/envs/core/env';

describe('registry and the environment contract', () => {
  it('lists the five classic-control environments with their spaces', () => {
    const ids = createRegistry().list().map((d) => d.id);
    for (const id of ['CartPole-v1', 'MountainCar-v0', 'MountainCarContinuous-v0', 'Pendulum-v1', 'Acrobot-v1']) assert.ok(ids.includes(id), id);
  });

  it('unknown environments and parameters are errors naming them', () => {
    const r = createRegistry();
    assert.throws(() => r.make('CartPole-v9'), /unknown environment "CartPole-v9".*CartPole-v1/);
    assert.throws(() => r.make('CartPole-v1', { gravity: 3 }), /CartPole-v1: parameter "gravity" is unknown/);
    assert.throws(() => r.make('Pendulum-v1', { g: -1 }), /Pendulum-v1: parameter "g" must be > 0, got -1/);
    assert.throws(() => r.make('Pendulum-v1', { g: 'x' }), /parameter "g" must be a finite number/);
    assert.throws(() => r.make('Acrobot-v1', { book_or_nips: 'x' }), /parameter "book_or_nips" must be one of book, nips/);
    assert.equal(r.make('Pendulum-v1', { g: 9.81 }).params['g'], 9.81);
  });

  it('step before reset and step after the episode ended throw clear errors', () => {
    const { env } = createRegistry().make('CartPole-v1');
    assert.throws(() => env.step(0), (e: unknown) => e instanceof EnvOrderError && /before reset/.test(e.message));
    env.reset({ seed: 1 });
    let r;
    do r = env.step(1);
    while (!r.terminated && !r.truncated);
    assert.throws(() => env.step(1), /after the episode ended/);
    env.reset();
    assert.doesNotThrow(() => env.step(0));
  });

  it('the time limit truncates exactly at maxEpisodeSteps, and both flags can be set together', () => {
    const { env, definition } = createRegistry().make('Pendulum-v1');
    env.reset({ seed: 3 });
    const a = Float64Array.of(0);
    for (let t = 1; t < (definition.maxEpisodeSteps as number); t++) assert.equal(env.step(a).truncated, false);
    assert.equal(env.step(a).truncated, true);

    const cart = createRegistry().make('CartPole-v1').env;
    cart.reset({ seed: 0 });
    cart.setState([2.39, 1, 0, 0]);
    cart.setElapsedSteps(499);
    const last = cart.step(1);
    assert.deepEqual([last.terminated, last.truncated], [true, true]);
  });

  it('reset(seed) is deterministic, reset options override the distribution', () => {
    const r = createRegistry();
    for (const id of ['CartPole-v1', 'MountainCar-v0', 'MountainCarContinuous-v0', 'Pendulum-v1', 'Acrobot-v1']) {
      const a = r.make(id).env;
      const b = r.make(id).env;
      assert.deepEqual(Array.from(a.reset({ seed: 5 }).observation as Float64Array), Array.from(b.reset({ seed: 5 }).observation as Float64Array), id);
      assert.ok(a.observationSpace.contains(a.reset({ seed: 6 }).observation), `${id} reset obs in space`);
    }
    const { env } = r.make('CartPole-v1');
    const obs = env.reset({ seed: 1, options: { low: 0.2, high: 0.2 } }).observation as Float64Array;
    assert.deepEqual(Array.from(obs), [0.2, 0.2, 0.2, 0.2].map(Math.fround));
    assert.throws(() => env.reset({ options: { low: 1, high: 0 } }), /low \(1\) must not exceed high \(0\)/);
  });

  it('getState/setState round-trip resumes an episode exactly', () => {
    const r = createRegistry();
    for (const id of ['CartPole-v1', 'MountainCarContinuous-v0', 'Acrobot-v1']) {
      const a = r.make(id).env;
      a.reset({ seed: 2 });
      const action = a.actionSpace.describe().type === 'Box' ? Float64Array.of(0.3) : 1;
      a.step(action);
      const saved = JSON.parse(JSON.stringify(a.getState()));
      const next = Array.from(a.step(action).observation as Float64Array);
      const b = r.make(id).env;
      b.reset({ seed: 99 });
      b.setState(saved);
      assert.deepEqual(Array.from(b.step(action).observation as Float64Array), next, id);
    }
  });

  describe('plugins', () => {
    let dir: string;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-plugin-'));
      const envImpl = `
        class CoinEnv {
          constructor(p) { this.p = p; this.observationSpace = { contains: () => true, sample: () => 0, describe: () => ({ type: 'Discrete', n: 1, start: 0 }), tsType: () => '0' };
            this.actionSpace = { contains: (x) => x === 0 || x === 1, sample: () => 0, describe: () => ({ type: 'Discrete', n: 2, start: 0 }), tsType: () => '0 | 1' }; }
          reset() { return { observation: 0, info: {} }; }
          step(a) { return { observation: 0, reward: a === 1 ? this.p.bias : 0, terminated: true, truncated: false, info: {} }; }
          getState() { return null; } setState() {}
        }`;
      fs.writeFileSync(path.join(dir, 'good.js'), `${envImpl}\nexports.environments = [{ id: 'Coin-v0', family: 'coin', description: 'flip', params: { bias: { type: 'number', default: 1, description: 'b' } }, maxEpisodeSteps: 1, rewardRange: [0, 1], create: (p) => new CoinEnv(p), starterPolicy: 'export class Policy { act() { return 1; } }' }];\n`);
      fs.writeFileSync(path.join(dir, 'throws.js'), "throw new Error('boom at load');\n");
      fs.writeFileSync(path.join(dir, 'empty.js'), 'exports.nothing = 1;\n');
      fs.writeFileSync(path.join(dir, 'badid.js'), "exports.environments = [{ id: 'no version', family: 'x', description: 'x', params: {}, maxEpisodeSteps: 1, rewardRange: [0,1], create: () => null, starterPolicy: '' }];\n");
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('loads a plugin from a path given at run time', () => {
      const r = createRegistry();
      const res = r.loadPlugin(path.join(dir, 'good.js'));
      assert.deepEqual(res, { ok: true, ids: ['Coin-v0'] });
      const { env } = r.make('Coin-v0', { bias: 0.5 });
      env.reset();
      assert.equal(env.step(1).reward, 0.5);
    });

    it('a broken plugin is reported with its path and reason, and the others still load', () => {
      const r = createRegistry();
      const results = ['throws.js', 'empty.js', 'badid.js', 'missing.js', 'good.js'].map((f) => r.loadPlugin(path.join(dir, f)));
      const messages = results.map((x) => (x.ok ? 'ok' : x.error.message));
      assert.match(messages[0]!, /throws\.js failed to load: boom at load/);
      assert.match(messages[1]!, /empty\.js failed to load: it exports no `environments` array/);
      assert.match(messages[2]!, /badid\.js failed to load: .*invalid id/);
      assert.match(messages[3]!, /missing\.js failed to load: Cannot find module/);
      assert.equal(messages[4], 'ok');
      assert.ok(r.has('Coin-v0') && r.has('CartPole-v1'));
    });
  });
});
