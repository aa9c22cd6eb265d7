/**
 * Classic-control step throughput through the full environment contract (episode limits,
 * observation, reward and flags), against the same dynamics written as bare arithmetic in
 * the same process: the physical limit of one core.
 */
import { createRegistry } from '../src/envs';
import { opsPerSecond, type BenchModule } from './harness';

/** Steps a made environment with a trivial policy, resetting when an episode ends. */
function envLoop(id: string, action: (obs: Float64Array) => unknown): (n: number) => number {
  const { env } = createRegistry().make(id);
  let obs = env.reset({ seed: 1 }).observation as Float64Array;
  let episode = 1;
  return (n) => {
    for (let i = 0; i < n; i++) {
      const r = env.step(action(obs));
      obs = r.observation as Float64Array;
      if (r.terminated || r.truncated) obs = env.reset({ seed: ++episode }).observation as Float64Array;
    }
    return n;
  };
}

/** CartPole's dynamics as bare arithmetic: no objects, no observation, no flags beyond the test. */
function bareCartPole(): (n: number) => number {
  const state = Float64Array.of(0.01, 0, 0.02, 0);
  return (n) => {
    // Locals inside the loop: the fastest form V8 gets for this arithmetic.
    let x = state[0] as number, xd = state[1] as number, th = state[2] as number, thd = state[3] as number;
    let resets = 0;
    for (let i = 0; i < n; i++) {
      const force = thd > 0 ? 10 : -10;
      const c = Math.cos(th), s = Math.sin(th);
      const temp = (force + 0.05 * thd * thd * s) / 1.1;
      const ta = (9.8 * s - c * temp) / (0.5 * (4 / 3 - (0.1 * c * c) / 1.1));
      const xa = temp - (0.05 * ta * c) / 1.1;
      x += 0.02 * xd; xd += 0.02 * xa; th += 0.02 * thd; thd += 0.02 * ta;
      if (x < -2.4 || x > 2.4 || th < -0.2094 || th > 0.2094) { resets++; x = 0.01; xd = 0; th = 0.02; thd = 0; }
    }
    state[0] = x; state[1] = xd; state[2] = th; state[3] = thd;
    return n + (resets < 0 ? 1 : 0);
  };
}

const trivial: Record<string, (obs: Float64Array) => unknown> = {
  'CartPole-v1': (o) => ((o[3] as number) > 0 ? 1 : 0),
  'MountainCar-v0': (o) => ((o[1] as number) > 0 ? 2 : 0),
  'MountainCarContinuous-v0': (() => { const a = new Float64Array(1); return (o: Float64Array) => { a[0] = (o[1] as number) > 0 ? 1 : -1; return a; }; })(),
  'Pendulum-v1': (() => { const a = new Float64Array(1); return (o: Float64Array) => { a[0] = -(o[2] as number); return a; }; })(),
  'Acrobot-v1': (o) => ((o[4] as number) > 0 ? 2 : 0),
};

export const classicBench: BenchModule = {
  name: 'classic control (steps/s, one core)',
  async run(table) {
    const bare = opsPerSecond(bareCartPole(), 1_000_000);
    for (const [id, act] of Object.entries(trivial)) {
      const rate = opsPerSecond(envLoop(id, act), 200_000);
      table.throughput(`${id} env.step`, rate, 'steps/s', 'bare CartPole loop', bare, id === 'CartPole-v1' ? '≤ 2×' : undefined);
    }
  },
};
