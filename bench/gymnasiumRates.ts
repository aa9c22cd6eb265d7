/**
 * The Python side of an environment bench: steps per second of Gymnasium environments under a
 * random policy, measured in the same run as ours, or why it could not be measured (the
 * packages are not importable where the bench runs).
 */
import { execFileSync } from 'node:child_process';

const PYTHON_PROBE = `
import sys, time, json, importlib
import gymnasium as gym
for module in sys.argv[1].split(','):
    importlib.import_module(module)
out = {}
for env_id in sys.argv[2:]:
    env = gym.make(env_id)
    env.reset(seed=1)
    env.action_space.seed(7)
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 3.0:
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        steps += 1
        if term or trunc:
            env.reset()
    out[env_id] = steps / (time.perf_counter() - t0)
print(json.dumps(out))
`;

/** `modules`: what must import besides gymnasium (e.g. `Box2D`, `highway_env`); `what` names the side in messages. */
export function gymnasiumRates(modules: readonly string[], ids: readonly string[], what: string): Record<string, number> | string {
  const all = ['gymnasium', ...modules];
  try {
    execFileSync('python3', ['-c', `import ${all.join(', ')}`], { stdio: 'pipe', timeout: 60_000 });
  } catch {
    return `python3 cannot import ${all.join(' and ')} here`;
  }
  try {
    return JSON.parse(execFileSync('python3', ['-c', PYTHON_PROBE, modules.join(','), ...ids], { encoding: 'utf8', timeout: 300_000 })) as Record<string, number>;
  } catch (e) {
    return `the ${what} measurement failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
  }
}
