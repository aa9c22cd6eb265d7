/**
 * Skill trackers on the real environments: scripted MiniGrid and BabyAI episodes whose outcomes
 * are known, classic control from its observations, and the rates over a batch.
 */
import { strict as assert } from 'node:assert';
import { createRegistry } from '../../../src/envs';
import { declaredSkills, trackSkills } from '../../../src/skills';
import { skillRates } from '../../../src/skills/rates';
import { babyAiSubgoals } from '../../../src/skills/minigrid';
import { BeforeInstr, GoToInstr, ObjDesc, OpenInstr } from '../../../src/envs/minigrid/babyai/instr';
import type { EpisodeSkills } from '../../../src/protocol/skills';

const registry = createRegistry();

/** Runs `actions` (or a function choosing each action from the bare env) and returns the outcomes. */
function run(envId: string, seed: number, choose: readonly unknown[] | ((env: unknown) => unknown), maxSteps = 500): { skills: EpisodeSkills; ret: number; steps: number } {
  const { env, definition } = registry.make(envId);
  const first = env.reset({ seed });
  const tracker = trackSkills(envId, definition.family, env.inner, first.observation);
  assert.ok(tracker, `${envId} declares skills`);
  let ret = 0;
  let steps = 0;
  for (let i = 0; i < maxSteps; i++) {
    const a = typeof choose === 'function' ? choose(env.inner) : choose[i];
    if (a === undefined || a === null) break;
    const r = env.step(a);
    tracker.step(a, r);
    ret += r.reward;
    steps++;
    if (r.terminated || r.truncated) break;
  }
  return { skills: tracker.outcomes(), ret, steps };
}

interface Grid {
  width: number;
  height: number;
  agentX: number;
  agentY: number;
  agentDir: number;
  carrying: number;
  objType: Uint8Array;
  objState: Uint8Array;
  get(x: number, y: number): number;
}
const DX = [1, 0, -1, 0];
const DY = [0, 1, 0, -1];
const [DOOR, KEY, GOAL] = [4, 5, 8];

/** The first action of a shortest path (left, right, forward) to face a cell of `type`, or 'here' when already facing one. */
function towards(w: Grid, type: number): number | 'here' | null {
  const passable = (x: number, y: number): boolean => {
    const id = w.get(x, y);
    return id === 0 || w.objType[id] === GOAL || (w.objType[id] === DOOR && w.objState[id] === 0);
  };
  const facing = (x: number, y: number, d: number): boolean => {
    const id = w.get(x + DX[d]!, y + DY[d]!);
    return id !== 0 && w.objType[id] === type;
  };
  const start = [w.agentX, w.agentY, w.agentDir] as const;
  if (facing(...start)) return 'here';
  const seen = new Set([start.join()]);
  const queue: [number, number, number, number][] = [[...start, -1]];
  while (queue.length) {
    const [x, y, d, firstAction] = queue.shift()!;
    const moves: [number, number, number, number][] = [[x, y, (d + 3) & 3, 0], [x, y, (d + 1) & 3, 1]];
    if (passable(x + DX[d]!, y + DY[d]!)) moves.push([x + DX[d]!, y + DY[d]!, d, 2]);
    for (const [nx, ny, nd, a] of moves) {
      const key = [nx, ny, nd].join();
      if (seen.has(key)) continue;
      seen.add(key);
      const fa = firstAction === -1 ? a : firstAction;
      if (facing(nx, ny, nd)) return fa;
      queue.push([nx, ny, nd, fa]);
    }
  }
  return null;
}

/** DoorKey solved in order: face the key, pick it up, face the door, open it, walk onto the goal. */
function doorKeySolver(opts: { skipKey?: boolean } = {}): (env: unknown) => number | null {
  return (env) => {
    const w = env as Grid;
    const haveKey = w.carrying !== 0;
    if (!haveKey && !opts.skipKey) {
      const a = towards(w, KEY);
      return a === 'here' ? 3 : a;
    }
    const doorId = (() => {
      for (let y = 0; y < w.height; y++) for (let x = 0; x < w.width; x++) if (w.objType[w.get(x, y)] === DOOR) return w.get(x, y);
      return 0;
    })();
    if (w.objState[doorId] !== 0) {
      const a = towards(w, DOOR);
      return a === 'here' ? 5 : a;
    }
    const a = towards(w, GOAL);
    return a === 'here' ? 2 : a;
  };
}

describe('skills: trackers', () => {
  it('MiniGrid Empty: reaching the goal, and skills the world gives no chance at are null', () => {
    const { skills, ret } = run('MiniGrid-Empty-5x5-v0', 1, [2, 2, 1, 2, 2]);
    assert.ok(ret > 0);
    assert.equal(skills['reached_goal'], 1);
    assert.equal(skills['avoided_lava'], null);
    assert.equal(skills['picked_up_key'], null);
    assert.equal(skills['opened_door'], null);
    assert.equal(skills['steps_to_first_pickup'], null);
    const idle = run('MiniGrid-Empty-5x5-v0', 1, [0, 1, 6]);
    assert.equal(idle.skills['reached_goal'], 0);
  });

  it('MiniGrid DoorKey: key, unlock and goal measured from the world, with the step of the first pickup', () => {
    for (const seed of [1, 2, 3]) {
      const solved = run('MiniGrid-DoorKey-5x5-v0', seed, doorKeySolver());
      assert.ok(solved.ret > 0, `seed ${seed} solved`);
      assert.deepEqual(
        { key: solved.skills['picked_up_key'], door: solved.skills['opened_door'], unlock: solved.skills['unlocked_door'], goal: solved.skills['reached_goal'] },
        { key: 1, door: 1, unlock: 1, goal: 1 },
      );
      assert.ok(typeof solved.skills['steps_to_first_pickup'] === 'number' && solved.skills['steps_to_first_pickup'] >= 1);
      // Without the key the locked door never opens: the tracker must not credit a toggle.
      const stuck = run('MiniGrid-DoorKey-5x5-v0', seed, doorKeySolver({ skipKey: true }), 40);
      assert.deepEqual([stuck.skills['picked_up_key'], stuck.skills['opened_door'], stuck.skills['unlocked_door'], stuck.skills['reached_goal']], [0, 0, 0, 0]);
    }
  });

  it('MiniGrid LavaGap: stepping into lava is measured', () => {
    const { skills } = run('MiniGrid-LavaGapS5-v0', 4, (env) => {
      const w = env as Grid;
      const a = towards(w, 9);
      return a === 'here' ? 2 : a;
    });
    assert.equal(skills['avoided_lava'], 0);
    assert.equal(skills['reached_goal'], 0);
  });

  it('BabyAI: the sub-goals of a sequence, done or not', () => {
    const a = new GoToInstr(new ObjDesc({ type: 'ball', color: 'red', loc: null }));
    const b = new OpenInstr(new ObjDesc({ type: 'door', color: 'blue', loc: null }));
    const seq = new BeforeInstr(a, b);
    seq.aDone = 'success';
    assert.deepEqual(babyAiSubgoals(seq, false), { mission_done: 0, subgoal_goto: 1, subgoal_pickup: null, subgoal_open: 0, subgoal_putnext: null });
    assert.deepEqual(babyAiSubgoals(seq, true), { mission_done: 1, subgoal_goto: 1, subgoal_pickup: null, subgoal_open: 1, subgoal_putnext: null });
    const ids = declaredSkills('BabyAI-SynthSeq-v0', 'minigrid').map((d) => d.id);
    assert.ok(ids.includes('subgoal_putnext') && ids.includes('mission_done'));
    const live = run('BabyAI-GoToRedBall-v0', 3, [6, 6]);
    assert.equal(live.skills['mission_done'], 0);
    assert.equal(live.skills['subgoal_goto'], 0);
  });

  it('classic control: CartPole time upright and the whole episode; Pendulum swing-up; MountainCar height', () => {
    const pushRight = run('CartPole-v1', 5, () => 1);
    assert.equal(pushRight.skills['full_episode'], 0);
    const upright = pushRight.skills['time_upright']!;
    assert.ok(upright > 0 && upright < 1, `upright share ${upright}`);
    const balanced = run('CartPole-v1', 5, (env) => {
      const s = (env as { getState(): unknown }).getState() as number[] | { state: number[] };
      const v = Array.isArray(s) ? s : s.state;
      return v[2]! + 0.5 * v[3]! + 0.01 * v[0]! + 0.1 * v[1]! > 0 ? 1 : 0;
    }, 600);
    assert.equal(balanced.steps, 500);
    assert.equal(balanced.skills['full_episode'], 1);
    assert.ok(balanced.skills['time_upright']! > 0.9);
    // A seed that starts in the lower half: without torque the pendulum cannot reach the top.
    const low = [1, 2, 3, 4, 5, 6, 7, 8].find((seed) => (registry.make('Pendulum-v1').env.reset({ seed }).observation as Float64Array)[0]! < -0.5)!;
    const hanging = run('Pendulum-v1', low, () => [0]);
    assert.equal(hanging.skills['swung_up'], 0);
    const stillCar = run('MountainCar-v0', 2, () => 1);
    assert.deepEqual([stillCar.skills['reached_goal'], stillCar.skills['half_height']], [0, 0]);
  });

  it('rates: mean and standard error over the episodes a skill applied to; runner faults left out', () => {
    const declared = declaredSkills('MiniGrid-DoorKey-5x5-v0', 'minigrid');
    const rates = skillRates(declared, [
      { status: 'ok', skills: { picked_up_key: 1, reached_goal: 1, avoided_lava: null } },
      { status: 'ok', skills: { picked_up_key: 1, reached_goal: 0, avoided_lava: null } },
      { status: 'exception', skills: { picked_up_key: 0, reached_goal: 0, avoided_lava: null } },
      { status: 'runner_fault', skills: { picked_up_key: 0, reached_goal: 0 } },
    ]);
    const key = rates.find((r) => r.id === 'picked_up_key')!;
    assert.equal(key.count, 3);
    assert.ok(Math.abs(key.mean - 2 / 3) < 1e-12);
    assert.ok(Math.abs(key.stderr - Math.sqrt(1 / 3) / Math.sqrt(3)) < 1e-12);
    assert.equal(rates.find((r) => r.id === 'avoided_lava'), undefined);
  });
});
