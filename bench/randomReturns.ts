/**
 * Random-policy returns of one environment, as docs/environments.md tables them: episode e resets
 * with seed e, actions are sampled uniformly from the action space by our generator (seed 12345).
 */
import type { Env } from '../src/envs/core/env';
import { Rng } from '../src/envs/core/rng';

export interface RandomReturns {
  mean: number;
  stderr: number;
  meanLength: number;
  stepsPerSecond: number;
}

export function randomReturns(env: Env<unknown, unknown>, episodes: number): RandomReturns {
  const rng = new Rng(12345);
  const returns: number[] = [];
  let steps = 0;
  const t0 = performance.now();
  for (let e = 0; e < episodes; e++) {
    env.reset({ seed: e });
    let total = 0;
    for (;;) {
      const r = env.step(env.actionSpace.sample(rng));
      total += r.reward;
      steps++;
      if (r.terminated || r.truncated) break;
    }
    returns.push(total);
  }
  const seconds = (performance.now() - t0) / 1000;
  const mean = returns.reduce((a, b) => a + b, 0) / episodes;
  const variance = returns.reduce((a, b) => a + (b - mean) ** 2, 0) / (episodes - 1);
  return { mean, stderr: Math.sqrt(variance / episodes), meanLength: steps / episodes, stepsPerSecond: steps / seconds };
}
