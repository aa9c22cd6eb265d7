import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRegistry } from '../../../src/envs';
import { describeTraining } from '../../../src/envs/core/training';
import { checkTrainingParams } from '../../../src/envs/core/trainingCheck';

const FIXTURE = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../fixtures/training/defaultLayouts.json'), 'utf8')) as { seeds: number; hashes: Record<string, string> };
const plain = (_k: string, v: unknown): unknown => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v);

/** Reset states, observations and step limits of the first seeds, hashed (as recorded before generators took parameters). */
function layoutHash(registry: ReturnType<typeof createRegistry>, id: string, params: Record<string, unknown> = {}): string {
  const h = createHash('sha256');
  const { env } = registry.make(id, params);
  for (let seed = 0; seed < FIXTURE.seeds; seed++) {
    const r = env.reset({ seed });
    h.update(JSON.stringify(env.getState(), plain));
    h.update(JSON.stringify(r.observation, plain));
    h.update(String(env.stepLimit()));
  }
  return h.digest('hex').slice(0, 32);
}

describe('training configurations: parameters a practice submit may change', () => {
  const registry = createRegistry();

  describe('defaults reproduce the levels and initial states from before the parameters existed', () => {
    for (const [id, hash] of Object.entries(FIXTURE.hashes)) {
      it(id, () => assert.equal(layoutHash(registry, id), hash));
    }
  });

  it('every MiniGrid generator named by the issue, classic control and driving declare a schema', () => {
    for (const id of ['MiniGrid-DoorKey-8x8-v0', 'MiniGrid-KeyCorridorS3R3-v0', 'MiniGrid-LavaGapS7-v0', 'MiniGrid-LavaCrossingS9N2-v0', 'MiniGrid-SimpleCrossingS9N1-v0', 'MiniGrid-MultiRoom-N4-S5-v1', 'CartPole-v1', 'Acrobot-v1', 'MountainCar-v0', 'MountainCarContinuous-v0', 'Pendulum-v1', 'highway-v0']) {
      assert.ok(describeTraining(registry.get(id)).length > 0, id);
    }
    assert.deepEqual(describeTraining(registry.get('MiniGrid-DoorKey-8x8-v0')), ['size: integer 5..16', 'key_placement: one of anywhere, near_door, far_from_door']);
  });

  it('refuses a value outside the bounds, naming the parameter and its bounds', () => {
    const def = registry.get('MiniGrid-DoorKey-8x8-v0');
    const r = checkTrainingParams(def, registry.make(def.id).params, { size: 40 });
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.param === 'size' && /size: integer 5\.\.16/.test(r.message) && /got 40/.test(r.message), JSON.stringify(r));
    const e = checkTrainingParams(def, {}, { key_placement: 'behind' });
    assert.ok(!e.ok && /key_placement: one of anywhere, near_door, far_from_door/.test(e.message), JSON.stringify(e));
    const i = checkTrainingParams(def, {}, { size: 6.5 });
    assert.ok(!i.ok && /integer/.test(i.message), JSON.stringify(i));
  });

  it('refuses an undeclared parameter, listing the ones it may change', () => {
    const cart = registry.get('CartPole-v1');
    const r = checkTrainingParams(cart, {}, { sutton_barto_reward: true });
    assert.ok(!r.ok && r.param === 'sutton_barto_reward' && /reset_bound: number 0\.\.0\.2/.test(r.message), JSON.stringify(r));
  });

  it('applies the overrides on top of the run parameters', () => {
    const cart = registry.get('CartPole-v1');
    const r = checkTrainingParams(cart, registry.make(cart.id).params, { reset_bound: 0.01 });
    assert.ok(r.ok);
    assert.deepEqual(r.ok && r.params, { sutton_barto_reward: false, reset_bound: 0.01 });
    const { env } = registry.make(cart.id, r.ok ? r.params : {});
    for (let seed = 0; seed < 20; seed++) {
      const obs = env.reset({ seed }).observation as Float64Array;
      assert.ok(obs.every((v) => Math.abs(v) <= 0.01 + 1e-7), String(obs));
    }
  });

  it('DoorKey near_door puts the key within two steps of the door, far_from_door farther on average', () => {
    const mean = (placement: string): number => {
      const { env } = registry.make('MiniGrid-DoorKey-8x8-v0', { key_placement: placement });
      let total = 0;
      for (let seed = 0; seed < 60; seed++) {
        env.reset({ seed });
        const text = env.renderText();
        const rows = text.split('\n');
        let key: [number, number] | null = null;
        let door: [number, number] | null = null;
        rows.forEach((row, y) => {
          for (let x = 0; x * 2 < row.length; x++) {
            const c = row.slice(x * 2, x * 2 + 2);
            if (c === 'KY') key = [x, y];
            if (c === 'LY') door = [x, y];
          }
        });
        assert.ok(key && door, text);
        const [kx, ky] = key as [number, number];
        const [dx, dy] = door as [number, number];
        const d = Math.abs(kx - dx) + Math.abs(ky - dy);
        if (placement === 'near_door') assert.ok(d <= 2, `seed ${seed}: key ${d} steps from the door\n${text}`);
        total += d;
      }
      return total / 60;
    };
    const near = mean('near_door');
    const anywhere = mean('anywhere');
    const far = mean('far_from_door');
    assert.ok(near < anywhere && anywhere < far, `near ${near}, anywhere ${anywhere}, far ${far}`);
  });

  it('MultiRoom refuses fewer maximum rooms than minimum ones when made', () => {
    assert.throws(() => registry.make('MiniGrid-MultiRoom-N4-S5-v1', { minNumRooms: 3, maxNumRooms: 2 }), /maxNumRooms.*>= minNumRooms/);
    const { env } = registry.make('MiniGrid-MultiRoom-N4-S5-v1', { minNumRooms: 2, maxNumRooms: 2 });
    env.reset({ seed: 3 });
    assert.equal(env.stepLimit(), 40);
  });

  it('LavaCrossing with no crossings has no lava', () => {
    const { env } = registry.make('MiniGrid-LavaCrossingS9N2-v0', { num_crossings: 0 });
    env.reset({ seed: 1 });
    assert.ok(!env.renderText().includes('VR'), env.renderText());
  });
});
