/**
 * MuJoCo trajectories are stored as the scene once plus per step the action, reward, reward terms
 * and qpos in thousandths (mujoco-delta/1). Recorded with the sandbox's own recorder on real
 * episodes, the expansion must give every pose exactly, the action, reward and terms to their
 * documented 4 decimals, and nothing the format does not promise.
 */
import * as assert from 'node:assert/strict';
import { expandTrajectory, parseRecordedTrajectory, type TrajectoryStep } from '../../../src/protocol/episodes';
import { MUJOCO_DELTA_FORMAT, reported } from '../../../src/protocol/mujocoTrajectory';
import { agentsMd } from '../../../src/agents/agentsMd';
import { createRegistry } from '../../../src/envs';
import { makeRunConfig } from '../../../src/runner/config';
import { recordMujoco } from './deltaFixture';

/** `info` keys left out of stored steps: they follow from qpos (or, for velocities, from reward_forward). The MuJoCo guide names them. */
const DERIVED_INFO = new Set(['x_position', 'y_position', 'distance_from_origin', 'z_distance_from_origin', 'x_velocity', 'y_velocity', 'tendon_length', 'tendon_velocity']);

/** A value rounded as the format stores it, as a file holds it (JSON has no -0). */
const round = (v: unknown): unknown => (typeof v === 'number' ? reported(v) + 0 : Array.isArray(v) ? v.map(round) : v);

const CASES: [string, number][] = [
  ['HalfCheetah-v5', 300],
  ['Hopper-v5', 1000],
  ['Ant-v5', 200],
  ['Humanoid-v5', 200],
  ['HumanoidStandup-v5', 100],
  ['InvertedDoublePendulum-v5', 1000],
  ['Reacher-v5', 50],
  ['FetchPush-v4', 50],
  ['FetchPickAndPlace-v4', 50],
];

describe('MuJoCo trajectories as scene plus qpos per step', () => {
  for (const [id, steps] of CASES) {
    it(`${id}: the expansion gives every pose exactly, and the action, reward and terms to 4 decimals`, async function () {
      this.timeout(120_000);
      for (const seed of [1, 2]) {
        const { plain, compact, env } = await recordMujoco(id, seed, steps);
        assert.equal(compact.format, MUJOCO_DELTA_FORMAT);
        // As a file holds it: JSON has no -0 (the scene's rounded vertices have some).
        const expanded = parseRecordedTrajectory({ ...compact, initialSnapshot: JSON.parse(JSON.stringify(compact.initialSnapshot)) as unknown });
        assert.equal(expanded.format, undefined);
        assert.deepEqual(expanded.initialSnapshot, plain.initialSnapshot);
        assert.equal(expanded.steps.length, plain.steps.length);
        expanded.steps.forEach((s, i) => {
          const p = plain.steps[i]!;
          const at = `${id} seed ${seed} step ${i + 1}`;
          assert.deepEqual(s.snapshot, p.snapshot, `${at}: pose`);
          assert.equal(s.terminated, p.terminated, at);
          assert.equal(s.truncated, p.truncated, at);
          assert.equal(s.observation, undefined, `${at}: the observation is not stored`);
          assert.deepEqual(s.action, round(p.action), `${at}: action`);
          assert.equal(s.reward, round(p.reward), `${at}: reward`);
          const info = p.info ?? {};
          assert.deepEqual(s.info, Object.fromEntries(env.rewardTerms.map((t) => [t, round(info[t])])), `${at}: reward terms`);
          const unknown = Object.keys(info).filter((k) => !env.rewardTerms.includes(k) && !DERIVED_INFO.has(k));
          assert.deepEqual(unknown, [], `${at}: every info key is a stored term or one the guide says how to derive`);
        });
      }
    });
  }

  it('keeps a 1000-step HalfCheetah episode under a fifth of the plain layout, the scene only in the header', async function () {
    this.timeout(120_000);
    const { compact, plainBytes } = await recordMujoco('HalfCheetah-v5', 3, 1000);
    const bytes = compact.stepsJsonl.length + JSON.stringify(compact.initialSnapshot).length;
    assert.ok(bytes <= plainBytes * 0.2, `${bytes} bytes against ${plainBytes} plain`);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.length, 1000);
    assert.ok(lines.every((l) => Array.isArray(l['qpos']) && (l['qpos'] as unknown[]).every(Number.isInteger) && !('scene' in l) && !('observation' in l) && !('snapshot' in l)));
  });

  it('refuses a step or header that does not fit the layout, naming the step', async function () {
    this.timeout(60_000);
    const { compact } = await recordMujoco('Reacher-v5', 1, 5);
    const lines = compact.stepsJsonl.split('\n').map((l) => JSON.parse(l) as TrajectoryStep);
    const expand = (steps: unknown[], initialSnapshot = compact.initialSnapshot): unknown => expandTrajectory({ format: MUJOCO_DELTA_FORMAT, initialSnapshot, steps: steps as TrajectoryStep[], truncated: false });
    const bad = lines.map((l) => ({ ...l })) as unknown as Record<string, unknown>[];
    bad[1]!['qpos'] = [0.5, 1];
    assert.throws(() => expand(bad), /step 2 is not a MuJoCo step \(qpos\.0: .*int/);
    const short = lines.map((l) => ({ ...l })) as unknown as Record<string, unknown>[];
    short[2]!['qpos'] = [1, 2];
    assert.throws(() => expand(short), /step 3 has 2 qpos values, not 4/);
    const terms = lines.map((l) => ({ ...l })) as unknown as Record<string, unknown>[];
    terms[0]!['terms'] = [1];
    assert.throws(() => expand(terms), /step 1 has 1 reward terms, not 2 \(reward_dist, reward_ctrl\)/);
    assert.throws(() => expand([], {}), /initialSnapshot is not a MuJoCo scene/);
  });

  it('AGENTS.md names every field of the stored lines and header, and every info key left out', async function () {
    this.timeout(60_000);
    const registry = createRegistry();
    for (const id of ['HalfCheetah-v5', 'FetchPush-v4']) {
      const made = makeRunConfig({ envId: id, params: {} } as Parameters<typeof makeRunConfig>[0]);
      if (!made.ok) throw new Error(made.error);
      const md = agentsMd(registry.get(id), made.config);
      assert.match(md, /"format": "mujoco-delta\/1"/);
      assert.match(md, /described under "Trajectory files" above/);
      assert.doesNotMatch(md, /Then one line per step: `observation`/, 'the plain layout is not described');
      const { compact } = await recordMujoco(id, 1, 3);
      const line = JSON.parse(compact.stepsJsonl.split('\n')[0]!) as Record<string, unknown>;
      const keys = [...Object.keys(line), ...Object.keys(compact.initialSnapshot as object), 'terminated', 'truncated', ...DERIVED_INFO];
      assert.deepEqual(keys.filter((k) => !md.includes(`\`${k}\``)), [], id);
    }
  });
});
