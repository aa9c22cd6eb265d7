import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import * as ts from 'typescript';
import { createRegistry } from '../../../src/envs';
import { starterFiles } from '../../../src/envs/core/starterFiles';
import { Rng } from '../../../src/envs/core/rng';
import { ACTION, OBJECT, STATE } from '../../../src/envs/minigrid/constants';
import type { MiniGridEnv, MiniGridObservation } from '../../../src/envs/minigrid/minigridEnv';
import type { MiniGridSnapshot, MiniGridState } from '../../../src/envs/minigrid/worldState';

const registry = createRegistry();
const bare = (id: string): MiniGridEnv => registry.make(id).env.inner as MiniGridEnv;
const cell = (img: Uint8Array, i: number, j: number): number[] => Array.from(img.subarray((i * 7 + j) * 3, (i * 7 + j) * 3 + 3));

describe('MiniGrid core', () => {
  it('registers the whole family with Gymnasium ids, no TimeLimit and a policy module', () => {
    const defs = registry.list().filter((d) => d.family === 'minigrid');
    assert.equal(defs.filter((d) => d.id.startsWith('MiniGrid-')).length, 48);
    for (const id of ['MiniGrid-MultiRoom-N4-S5-v0', 'MiniGrid-MultiRoom-N4-S5-v1', 'MiniGrid-ObstructedMaze-Full-v0', 'MiniGrid-ObstructedMaze-2Dlhb-v1', 'MiniGrid-Empty-Random-6x6-v0']) {
      assert.ok(registry.has(id), id);
    }
    assert.ok(!registry.has('MiniGrid-ObstructedMaze-1Dlhb-v1'), 'Gymnasium has no 1Dlhb-v1');
    for (const d of defs) {
      assert.equal(d.maxEpisodeSteps, null);
      assert.ok(d.workspaceFiles?.['policy/minigrid.ts']?.includes('export const OBJECT'));
      assert.match(d.starterPolicy, /from '\.\/minigrid'/);
    }
  });

  it('describes the observation as Dict(direction, image uint8 7×7×3, mission)', () => {
    const env = bare('MiniGrid-DoorKey-8x8-v0');
    assert.deepEqual(Object.keys((env.observationSpace.describe() as { spaces: object }).spaces), ['direction', 'image', 'mission']);
    const obs = env.reset({ seed: 3 }).observation;
    assert.ok(env.observationSpace.contains(obs));
    assert.equal(obs.image.length, 147);
    assert.equal(obs.mission, 'use the key to open the door and then get to the goal');
  });

  it('truncates internally at max_steps and pays 1 − 0.9·steps/max_steps on success', () => {
    const env = bare('MiniGrid-Empty-5x5-v0');
    env.reset({ seed: 0 });
    // (1,1) east → (2,1), (3,1), turn right, (3,2), (3,3) = goal on step 5.
    const actions = [ACTION.forward, ACTION.forward, ACTION.right, ACTION.forward, ACTION.forward];
    let r = env.step(actions[0]!);
    for (const a of actions.slice(1)) r = env.step(a);
    assert.equal(r.terminated, true);
    assert.equal(r.reward, 1 - 0.9 * (5 / 100));
    env.reset({ seed: 0 });
    for (let t = 1; t <= 100; t++) {
      r = env.step(ACTION.left);
      assert.equal(r.truncated, t === 100);
      assert.equal(r.reward, 0);
    }
  });

  it('rejects an action outside 0..6 with a message naming the actions', () => {
    const env = bare('MiniGrid-Empty-5x5-v0');
    env.reset({ seed: 0 });
    assert.throws(() => env.step(7), /0\.\.6 \(left, right, forward, pickup, drop, toggle, done\), got 7/);
  });

  it('opens a locked door only with a key of its colour, and shows the carried key in the agent cell', () => {
    const env = bare('MiniGrid-DoorKey-5x5-v0');
    env.reset({ seed: 0 });
    const s = env.getState();
    // Put the agent at (1,1) facing south with the key in front, door at (2,2).
    const grid = s.grid.split('');
    const put = (x: number, y: number, enc: string): void => {
      grid.splice((x * 5 + y) * 3, 3, ...enc.split(''));
    };
    for (let y = 1; y <= 3; y++) put(1, y, '100');
    for (let y = 0; y < 5; y++) put(2, y, '250');
    put(1, 2, '540');
    put(2, 3, '442');
    env.setState({ ...s, grid: grid.join(''), agent_pos: [1, 1], agent_dir: 1, carrying: null });
    let obs: MiniGridObservation = env.step(ACTION.pickup).observation;
    assert.deepEqual(cell(obs.image, 3, 6), [OBJECT.key, 4, 0]);
    env.step(ACTION.forward);
    env.step(ACTION.forward); // (1,3)
    env.step(ACTION.left); // east, door in front
    obs = env.step(ACTION.toggle).observation;
    assert.deepEqual(cell(obs.image, 3, 5), [OBJECT.door, 4, STATE.open]);
    obs = env.step(ACTION.toggle).observation;
    assert.deepEqual(cell(obs.image, 3, 5), [OBJECT.door, 4, STATE.closed], 'an unlocked door closes as closed, not locked');
  });

  it('round-trips getState/setState, including which object is the task target', () => {
    const env = bare('MiniGrid-KeyCorridorS3R3-v0');
    env.reset({ seed: 11 });
    for (let t = 0; t < 15; t++) env.step(t % 3 === 0 ? ACTION.right : ACTION.forward);
    const state = JSON.parse(JSON.stringify(env.getState())) as MiniGridState;
    const obs = Array.from(env.currentObservation().image);
    const text = env.renderText();
    const other = bare('MiniGrid-KeyCorridorS3R3-v0');
    other.reset({ seed: 99 });
    other.setState(state);
    assert.deepEqual(other.getState(), state);
    assert.deepEqual(Array.from(other.currentObservation().image), obs);
    assert.equal(other.renderText(), text);
    assert.equal(other.objType[other.targetId], OBJECT.ball);
  });

  it('keeps every observation equal to one computed from scratch (view cache, state round trip)', () => {
    const rng = new Rng('cache');
    const fresh = new Map<string, MiniGridEnv>();
    for (const id of ['MiniGrid-ObstructedMaze-Full-v1', 'MiniGrid-BlockedUnlockPickup-v0', 'MiniGrid-KeyCorridorS3R3-v0', 'MiniGrid-MultiRoom-N6-v0', 'MiniGrid-LavaCrossingS11N5-v0', 'MiniGrid-Empty-Random-6x6-v0']) {
      const env = bare(id);
      const copy = fresh.get(id) ?? bare(id);
      fresh.set(id, copy);
      for (let episode = 0; episode < 4; episode++) {
        env.reset({ seed: episode });
        for (let t = 0; t < 150; t++) {
          // Bias toward interactions so doors, boxes and pickups all happen.
          const r = env.step(rng.random() < 0.5 ? rng.integers(3, 6) : rng.integers(0, 3));
          copy.setState(JSON.parse(JSON.stringify(env.getState())));
          assert.deepEqual(Array.from(r.observation.image), Array.from(copy.currentObservation().image), `${id} episode ${episode} step ${t + 1}`);
          if (r.terminated || r.truncated) break;
        }
      }
    }
  });

  it('refuses malformed states with messages naming the field', () => {
    const env = bare('MiniGrid-Unlock-v0');
    env.reset({ seed: 0 });
    const s = env.getState();
    assert.throws(() => env.setState({ ...s, grid: '123' }), /grid must be 198 digits/);
    assert.throws(() => env.setState({ ...s, agent_pos: [40, 1] }), /outside the 11×6 grid/);
    assert.throws(() => env.setState({ ...s, task: { kind: 'open_door', target_pos: [0, 0] } }), /holds no object/);
    let key = 0;
    while (s.grid[key * 3] !== String(OBJECT.key)) key++;
    assert.throws(() => env.setState({ ...s, task: { kind: 'open_door', target_pos: [Math.floor(key / 6), key % 6] } }), /holds no door/);
    assert.throws(() => env.setState({ ...s, task: undefined }), /needs task.target_pos/);
  });

  it('snapshots the world for a replay view: grid, pose, carrying and the visible cells', () => {
    const env = bare('MiniGrid-FourRooms-v0');
    env.reset({ seed: 5 });
    const snap: MiniGridSnapshot = env.snapshot();
    assert.equal(snap.grid.length, 19 * 19 * 3);
    assert.deepEqual(snap.agent, [env.agentX, env.agentY, env.agentDir]);
    assert.ok(snap.visible.includes(env.agentX * 19 + env.agentY));
    assert.ok(snap.visible.length <= 49 && snap.visible.length > 1);
    assert.equal(JSON.parse(JSON.stringify(snap)).mission, 'reach the goal');
  });

  it('hides cells behind walls (see_through_walls false) but not in Empty (true)', () => {
    const fr = bare('MiniGrid-FourRooms-v0');
    let hidden = 0;
    for (let seed = 0; seed < 20; seed++) {
      const img = fr.reset({ seed }).observation.image;
      for (let c = 0; c < 49; c++) if (img[c * 3] === OBJECT.unseen) hidden++;
    }
    assert.ok(hidden > 0);
    const empty = bare('MiniGrid-Empty-16x16-v0');
    const img = empty.reset({ seed: 0 }).observation.image;
    for (let c = 0; c < 49; c++) assert.notEqual(img[c * 3], OBJECT.unseen);
  });

  it('gives new workspaces a starter policy that bundles with its constants module and acts', async () => {
    const def = registry.get('MiniGrid-DoorKey-8x8-v0');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-minigrid-'));
    try {
      fs.mkdirSync(path.join(dir, 'policy'));
      fs.writeFileSync(path.join(dir, 'policy/policy.ts'), def.starterPolicy);
      for (const [rel, src] of Object.entries(def.workspaceFiles ?? {})) fs.writeFileSync(path.join(dir, rel), src);
      const out = await build({ entryPoints: [path.join(dir, 'policy/policy.ts')], bundle: true, write: false, format: 'cjs', platform: 'neutral', logLevel: 'silent' });
      const mod: { exports: { Policy?: new (ctx: unknown) => { act(o: unknown): number } } } = { exports: {} };
      new Function('module', 'exports', out.outputFiles[0]!.text)(mod, mod.exports);
      const policy = new mod.exports.Policy!({});
      const env = bare('MiniGrid-DoorKey-8x8-v0');
      let obs = env.reset({ seed: 1 }).observation;
      for (let t = 0; t < 50; t++) {
        const a = policy.act(obs);
        assert.ok(Number.isInteger(a) && a >= 0 && a <= 6);
        const r = env.step(a);
        if (r.terminated || r.truncated) break;
        obs = r.observation;
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('MiniGrid workspace files', () => {
  it('type-check: the starter policy, policy/minigrid.ts and the generated env.d.ts agree', () => {
    const made = registry.make('MiniGrid-ObstructedMaze-1Q-v1');
    const files = starterFiles(made.definition, made.params, made.env);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-minigrid-ws-'));
    const names: string[] = [];
    for (const [rel, src] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), src);
      if (rel.endsWith('.ts')) names.push(path.join(root, rel));
    }
    const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts'], strict: true, noEmit: true, skipLibCheck: true, types: [], module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
    const program = ts.createProgram(names, options);
    const diags = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    fs.rmSync(root, { recursive: true, force: true });
    assert.deepEqual(diags, []);
  });
});
