import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { createRegistry } from '../../../src/envs';
import { starterFiles } from '../../../src/envs/core/starterFiles';
import { BabyAILevel, type InstrSpec } from '../../../src/envs/minigrid';
import { PutNextInstr, SeqInstr, type Instr } from '../../../src/envs/minigrid/babyai/instr';
import { Rng } from '../../../src/envs/core/rng';

const registry = createRegistry();
const ids = registry.list().filter((d) => d.id.startsWith('BabyAI-')).map((d) => d.id);
const bare = (id: string): BabyAILevel => registry.make(id).env.inner as BabyAILevel;

function ops(i: InstrSpec, out = new Set<string>()): Set<string> {
  out.add(i.op);
  if ('a' in i) {
    ops(i.a, out);
    ops(i.b, out);
  }
  return out;
}

function putNexts(i: Instr): PutNextInstr[] {
  if (i instanceof SeqInstr) return [...putNexts(i.a), ...putNexts(i.b)];
  return i instanceof PutNextInstr ? [i] : [];
}

describe('BabyAI levels', () => {
  it('registers the 96 BabyAI ids of MiniGrid 3.1, including the BALROG BabyAI-Text tasks', () => {
    assert.equal(ids.length, 96);
    for (const id of ['BabyAI-GoTo-v0', 'BabyAI-Pickup-v0', 'BabyAI-Open-v0', 'BabyAI-PutNextLocal-v0', 'BabyAI-SynthSeq-v0', 'BabyAI-BossLevel-v0', 'BabyAI-GoToObjS6-v1']) assert.ok(registry.has(id), id);
    for (const id of ids) assert.equal(registry.get(id).family, 'minigrid');
  });

  for (const id of ids) {
    it(`${id}: mission text, parsed mission, step budget and matched objects agree`, () => {
      const env = bare(id);
      for (let seed = 0; seed < 6; seed++) {
        const { observation, info } = env.reset({ seed });
        const where = `${id} seed ${seed}`;
        assert.equal(observation.mission, env.instrs.surface(), where);
        assert.deepEqual((info as { mission: InstrSpec }).mission, env.instrs.spec(), where);
        if (!env.fixedMaxSteps) assert.equal(env.maxSteps, env.instrs.navs() * env.roomSize ** 2 * env.numRows * env.numCols, where);
        for (const d of env.instrs.descs()) assert.ok(d.ids.length > 0 && d.ids.length === d.poss.length, `${where}: ${JSON.stringify(d.spec)} matches nothing`);
        // Rejection sampling: a put-next is never satisfied at the start.
        for (const p of putNexts(env.instrs)) assert.ok(!p.objsNext(), `${where}: put-next objects already adjacent`);
      }
    });
  }

  it('round-trips its state mid-episode (verifier progress included): both copies then agree step for step', () => {
    const rng = new Rng(7);
    for (const id of ['BabyAI-BossLevel-v0', 'BabyAI-SynthSeq-v0', 'BabyAI-PutNextLocal-v0', 'BabyAI-MoveTwoAcrossS5N2-v0', 'BabyAI-PutNextS5N2Carrying-v0', 'BabyAI-KeyInBox-v0']) {
      for (let seed = 0; seed < 5; seed++) {
        const a = bare(id);
        a.reset({ seed });
        for (let t = 0; t < 40; t++) a.step(rng.integers(0, 7));
        const b = bare(id);
        b.reset({ seed: 99 });
        b.setState(JSON.parse(JSON.stringify(a.getState())));
        assert.deepEqual(b.sequenceState(), a.sequenceState());
        for (let t = 0; t < 200; t++) {
          const act = rng.integers(0, 7);
          const ra = a.step(act);
          const sa = { img: Array.from(ra.observation.image), reward: ra.reward, term: ra.terminated, info: ra.info };
          const rb = b.step(act);
          assert.deepEqual({ img: Array.from(rb.observation.image), reward: rb.reward, term: rb.terminated, info: rb.info }, sa, `${id} seed ${seed} step ${t}`);
          if (ra.terminated || ra.truncated) break;
        }
      }
    }
  });

  it('verifies go-to as soon as the agent faces a matched object, with the success reward', () => {
    const env = bare('BabyAI-GoToLocal-v0');
    env.reset({ seed: 3 });
    const st = env.getState();
    const [tx, ty] = env.instrs.descs()[0]!.poss[0]!;
    // Stand next to the target, facing it (any free neighbour will do).
    const dirs: [number, number, number][] = [[-1, 0, 0], [0, -1, 1], [1, 0, 2], [0, 1, 3]];
    const spot = dirs.find(([dx, dy]) => env.get(tx + dx, ty + dy) === 0)!;
    env.setState({ ...st, agent_pos: [tx + spot[0], ty + spot[1]], agent_dir: spot[2] });
    const r = env.step(6);
    assert.equal(r.terminated, true);
    assert.equal(r.reward, 1 - 0.9 * (1 / env.maxSteps));
    assert.equal((r.info as { status: string }).status, 'success');
  });

  it('PutNext Carrying variants start holding the object to move; the reset observation predates taking it, as in MiniGrid', () => {
    const env = bare('BabyAI-PutNextS5N2Carrying-v0');
    for (let seed = 0; seed < 10; seed++) {
      const obs = env.reset({ seed }).observation;
      const move = env.instrs.descs()[0]!;
      assert.ok(move.ids.includes(env.carrying), `seed ${seed}: carries ${env.carrying}`);
      assert.deepEqual(Array.from(obs.image.subarray(27 * 3, 27 * 3 + 3)), [1, 0, 0]);
      const next = env.step(0).observation;
      assert.deepEqual(Array.from(next.image.subarray(27 * 3, 27 * 3 + 3)), [env.objType[env.carrying], env.objColor[env.carrying], 0]);
    }
  });

  it('describes with "the" for one match, "a" for several, and location words from the start pose', () => {
    const env = bare('BabyAI-SynthLoc-v0');
    let sawLoc = false;
    for (let seed = 0; seed < 60; seed++) {
      env.reset({ seed });
      const text = env.mission;
      for (const d of env.instrs.descs()) {
        const s = d.surface();
        assert.ok(text.includes(s), `${text} / ${s}`);
        assert.equal(s.startsWith('the '), d.ids.length === 1, s);
        if (d.spec.loc) sawLoc = true;
      }
    }
    assert.ok(sawLoc, 'SynthLoc never used a location in 60 episodes');
  });

  it('rejection sampling keeps the generators\' promises (reachability, unique objects, no key of a locked door named)', () => {
    const reachable = ['BabyAI-GoTo-v0', 'BabyAI-Pickup-v0', 'BabyAI-Open-v0', 'BabyAI-PutNextLocal-v0', 'BabyAI-GoToLocal-v0', 'BabyAI-PickupLoc-v0', 'BabyAI-GoToSeq-v0', 'BabyAI-Unlock-v0'];
    for (const id of reachable) {
      const env = bare(id);
      for (let seed = 0; seed < 30; seed++) {
        env.reset({ seed });
        assert.ok(env.checkObjsReachable(false), `${id} seed ${seed}: an object is unreachable`);
      }
    }
    const blocked = bare('BabyAI-UnblockPickup-v0');
    for (let seed = 0; seed < 30; seed++) {
      blocked.reset({ seed });
      assert.equal(blocked.checkObjsReachable(false), false, `UnblockPickup seed ${seed}: nothing blocks`);
    }
    const local = bare('BabyAI-PutNextLocal-v0');
    for (let seed = 0; seed < 30; seed++) {
      local.reset({ seed });
      const kinds = new Set<string>();
      for (let x = 0; x < local.width; x++) for (let y = 0; y < local.height; y++) {
        const id = local.get(x, y);
        if (id !== 0 && local.objType[id] !== 2) kinds.add(`${local.objType[id]},${local.objColor[id]}`);
      }
      assert.equal(kinds.size, 8, `PutNextLocal seed ${seed}: objects not all distinct`);
    }
    for (const id of ['BabyAI-SynthSeq-v0', 'BabyAI-BossLevel-v0']) {
      const env = bare(id);
      for (let seed = 0; seed < 60; seed++) {
        env.reset({ seed });
        const locked = new Set<number>();
        for (let x = 0; x < env.width; x++) for (let y = 0; y < env.height; y++) {
          const d = env.get(x, y);
          if (d !== 0 && env.objType[d] === 4 && env.objState[d] === 2) locked.add(env.objColor[d]!);
        }
        for (const d of env.instrs.descs()) {
          if (d.spec.type === 'key' && d.spec.color !== null) assert.ok(!locked.has(env.objColor[d.ids[0]!]!), `${id} seed ${seed}: names the key of a locked door`);
        }
      }
    }
  });

  it('BossLevel draws the whole instruction language', () => {
    const env = bare('BabyAI-BossLevel-v0');
    const seen = new Set<string>();
    for (let seed = 0; seed < 150; seed++) {
      env.reset({ seed });
      ops(env.instrs.spec(), seen);
    }
    assert.deepEqual([...seen].sort(), ['after', 'and', 'before', 'goto', 'open', 'pickup', 'putnext']);
  });

  it('type-check: the BabyAI starter, policy/babyai.ts and the generated env.d.ts agree', () => {
    const made = registry.make('BabyAI-BossLevel-v0');
    const files = starterFiles(made.definition, made.params, made.env);
    assert.ok(files['policy/babyai.ts']);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-babyai-ws-'));
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
