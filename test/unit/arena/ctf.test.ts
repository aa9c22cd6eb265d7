import { strict as assert } from 'node:assert';
import { CaptureTheFlagEnv, ctfOpponent, observationSize } from '../../../src/envs/arena/ctf';
import { SideView, playMatch } from '../../../src/envs/core/multiAgent';

const cfg = { teamSize: 2, length: 160, width: 80, maxSteps: 600, capturesToWin: 3 };

describe('CaptureTheFlag-v0', () => {
  it('2v2 by default shape, 3v3 and field size as parameters', () => {
    const env = new CaptureTheFlagEnv({ ...cfg, teamSize: 3, length: 200, width: 100 });
    assert.deepEqual(env.sides['blue'], ['blue_0', 'blue_1', 'blue_2']);
    const obs = env.reset({ seed: 1 }).observations['red_2'] as Float64Array;
    assert.equal(obs.length, observationSize(3));
    assert.deepEqual(env.activeAgents(), env.agents, 'simultaneous moves');
  });

  it('is deterministic given the seeds', () => {
    const run = () => playMatch(new CaptureTheFlagEnv(cfg), { blue: ctfOpponent('planner', cfg, 3), red: ctfOpponent('random', cfg, 4) }, 7, 10_000);
    assert.deepEqual(run(), run());
  });

  it('respects the speed limit and the acceleration limit', () => {
    const env = new CaptureTheFlagEnv(cfg);
    env.reset({ seed: 2 });
    const full = { blue_0: [1, 0], blue_1: [1, 0], red_0: [1, 0], red_1: [1, 0] };
    env.step(full);
    const s1 = env.snapshot() as { agents: { x: number }[] };
    const x0 = s1.agents[0]!.x;
    for (let i = 0; i < 40; i++) env.step(full);
    const s2 = env.snapshot() as { agents: { x: number }[] };
    assert.ok(s2.agents[0]!.x - x0 <= 40 * 6 * 0.25 + 1e-9);
    const st = env.getState() as { agents: { v: number }[] };
    assert.ok(st.agents.every((a) => a.v <= 6));
  });

  it('a defender tags an intruder in its half; the intruder must go home first', () => {
    const env = new CaptureTheFlagEnv(cfg);
    env.reset({ seed: 0 });
    const st = env.getState() as { agents: { id: string; x: number; y: number; v: number; h: number }[] };
    const red0 = st.agents.find((a) => a.id === 'red_0')!, blue0 = st.agents.find((a) => a.id === 'blue_0')!;
    Object.assign(red0, { x: 50, y: 40, v: 0 });
    Object.assign(blue0, { x: 52, y: 40, v: 0 });
    env.setState(st);
    const r = env.step({});
    const events = (r.info as { events?: { kind: string; agent: string; other?: string }[] }).events ?? [];
    assert.ok(events.some((e) => e.kind === 'tag' && e.agent === 'blue_0' && e.other === 'red_0'));
    const snap = env.snapshot() as { agents: { id: string; tagged: boolean }[] };
    assert.equal(snap.agents.find((a) => a.id === 'red_0')!.tagged, true);
  });

  it('a capture scores a point and rewards the side', () => {
    const env = new CaptureTheFlagEnv(cfg);
    env.reset({ seed: 0 });
    const st = env.getState() as { agents: { id: string; x: number; y: number; v: number; carrying: boolean }[]; flags: Record<string, { carrier: string | null }> };
    const b = st.agents.find((a) => a.id === 'blue_0')!;
    Object.assign(b, { x: 80.1, y: 10, v: 0, carrying: true, h: Math.PI });
    st.flags['red']!.carrier = 'blue_0';
    env.setState(st);
    const r = env.step({ blue_0: [1, 0] });
    assert.deepEqual(env.scores(), { blue: 1, red: 0 });
    assert.equal((r.rewards['blue_0'] ?? 0) + (r.rewards['blue_1'] ?? 0), 1);
  });

  it('the planner beats random and aggressive teams', () => {
    for (const weak of ['random', 'aggressive'] as const) {
      let wins = 0;
      for (let g = 0; g < 6; g++) {
        const blueIsPlanner = g % 2 === 0;
        const p = ctfOpponent('planner', cfg, g), o = ctfOpponent(weak, cfg, 50 + g);
        const { scores } = playMatch(new CaptureTheFlagEnv(cfg), blueIsPlanner ? { blue: p, red: o } : { blue: o, red: p }, g, 10_000);
        const [mine, theirs] = blueIsPlanner ? [scores['blue']!, scores['red']!] : [scores['red']!, scores['blue']!];
        if (mine > theirs) wins++;
      }
      assert.ok(wins >= 5, `planner won ${wins}/6 against ${weak}`);
    }
  });

  it('a side view controls a whole team as one policy (ctx names its agents)', () => {
    const view = new SideView(new CaptureTheFlagEnv(cfg), 'red', { blue: ctfOpponent('aggressive', cfg, 1) });
    const first = view.reset({ seed: 3 });
    assert.deepEqual(Object.keys(first.observation).sort(), ['red_0', 'red_1']);
    assert.deepEqual(view.context().ownAgents, ['red_0', 'red_1']);
    const r = view.step({ red_0: Float64Array.of(1, 0), red_1: Float64Array.of(1, 0) });
    assert.equal(r.terminated, false);
    assert.throws(() => view.step({ red_0: Float64Array.of(1, 0) }), /no action for its active agent red_1/);
  });
});
