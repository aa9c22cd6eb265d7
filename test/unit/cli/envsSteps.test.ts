/**
 * `policyforge envs` states each id's step limit as the environment reports it: MiniGrid's
 * max_steps at the default size, BabyAI's range over the instructions a level draws, and no id
 * left as an unnamed "internal limit".
 */
import assert from 'node:assert/strict';
import { envsCommand } from '../../../src/cli/commands/envs';
import { createRegistry } from '../../../src/envs';
import type { StepLimitRange } from '../../../src/envs/core/env';
import { capture } from './cliHelpers';

interface Row {
  id: string;
  maxEpisodeSteps: number | null;
  stepLimit: StepLimitRange | null;
}

/** Seeds per id: enough for BabyAI's sequence levels to draw instructions of different lengths. */
const SEEDS = 30;

describe('cli: envs states the step limit', function () {
  this.timeout(120_000);
  const registry = createRegistry();
  let rows: Row[];
  let text: string;

  before(async () => {
    const json = await capture(() => envsCommand.run(['--json']));
    assert.equal(json.code, 0, json.err);
    rows = JSON.parse(json.out) as Row[];
    const plain = await capture(() => envsCommand.run([]));
    assert.equal(plain.code, 0, plain.err);
    text = plain.out;
  });

  /** The limits an instance gives the policy (what the worker reads after each reset), over the seeds. */
  const observed = (id: string): number[] => {
    const { env } = registry.make(id);
    const seen = new Set<number | null>();
    for (let seed = 0; seed < SEEDS; seed++) {
      env.reset({ seed });
      seen.add(env.stepLimit());
    }
    assert.ok(!seen.has(null), `${id} reports no limit after a reset`);
    return [...(seen as Set<number>)].sort((a, b) => a - b);
  };

  it('MiniGrid and BabyAI ids with one limit: the number an instance reports at every reset', () => {
    const expected: Record<string, number> = {
      'MiniGrid-DoorKey-16x16-v0': 10 * 16 * 16,
      'MiniGrid-KeyCorridorS3R1-v0': 270,
      'MiniGrid-Empty-5x5-v0': 4 * 5 * 5,
      'BabyAI-GoToRedBall-v0': 64,
      'BabyAI-PutNextLocal-v0': 2 * 64,
      'BabyAI-KeyCorridorS3R1-v0': 270,
    };
    for (const [id, steps] of Object.entries(expected)) {
      const row = rows.find((r) => r.id === id)!;
      assert.deepEqual(row.stepLimit, { min: steps, max: steps }, id);
      assert.equal(row.maxEpisodeSteps, steps, id);
      assert.deepEqual(observed(id), [steps], id);
      assert.match(text, new RegExp(`^${id} .*\\n.*\\n.*\\n.*\\n {2}steps: ${steps} {2}failure return`, 'm'));
    }
  });

  it('BabyAI levels that derive the limit from the instruction: a range the resets stay in and span', () => {
    const boss = rows.find((r) => r.id === 'BabyAI-BossLevel-v0')!;
    assert.deepEqual(boss.stepLimit, { min: 576, max: 8 * 576, rule: '576 per navigation the instruction needs' });
    assert.equal(boss.maxEpisodeSteps, 8 * 576);
    assert.match(text, /^ {2}steps: 576–4608 by episode \(576 per navigation the instruction needs\) {2}failure return/m);
    const seen = observed('BabyAI-BossLevel-v0');
    assert.ok(seen.length > 1, `one instruction length in ${SEEDS} seeds: ${seen.join(',')}`);
    assert.ok(seen.every((s) => s % 576 === 0));
  });

  it('every MiniGrid and BabyAI id: each reset within the stated range, a single limit exact', () => {
    const minigrid = rows.filter((r) => registry.get(r.id).family === 'minigrid');
    assert.ok(minigrid.length > 100, `${minigrid.length} ids`);
    for (const row of minigrid) {
      const seen = observed(row.id);
      const range = row.stepLimit!;
      assert.ok(range && seen[0]! >= range.min && seen.at(-1)! <= range.max, `${row.id}: resets gave ${seen.join(',')}, envs says ${JSON.stringify(range)}`);
      if (range.min === range.max) assert.deepEqual(seen, [range.max], row.id);
      else assert.ok(range.rule, `${row.id}: a range says how the limit is derived`);
    }
  });

  it('no id prints "internal limit"; one nothing truncates says so', () => {
    assert.doesNotMatch(text, /internal limit/);
    const unbounded = rows.filter((r) => r.stepLimit === null).map((r) => r.id);
    for (const id of unbounded) {
      assert.equal(registry.make(id).env.stepLimit(), null, `${id}: envs says no limit, its instance has one`);
      assert.match(text, new RegExp(`^${id} [^]*?\\n {2}steps: no limit \\(an episode ends when it terminates or at the episode time limit\\)`, 'm'));
    }
  });
});
