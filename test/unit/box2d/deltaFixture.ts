/**
 * Box2D episodes driven by the family's starter policy and recorded twice by the sandbox's own
 * recorder, in the plain layout and as the environment's delta format.
 */
import * as assert from 'node:assert/strict';
import { transformSync } from 'esbuild';
import { createRegistry } from '../../../src/envs';
import type { RecordedTrajectory, TrajectoryStep } from '../../../src/protocol/episodes';
import { toJson } from '../../../src/sandbox/worker/observationCopy';
import { jsonText, TrajectoryRecorder } from '../../../src/sandbox/worker/trajectory';

const registry = createRegistry();

type Policy = { act(o: unknown, info: unknown): unknown; reset?(o: unknown, info: unknown): void };

function starter(id: string, seed: number, p: Record<string, unknown>): Policy {
  const def = registry.get(id);
  const js = transformSync(def.starterPolicy, { loader: 'ts', format: 'cjs' }).code;
  const mod: { exports: { Policy?: new (ctx: unknown) => Policy } } = { exports: {} };
  new Function('module', 'exports', js)(mod, mod.exports);
  const P = mod.exports.Policy;
  if (!P) throw new Error(`${id} starter exports no Policy`);
  const { env, params } = registry.make(id, p);
  return new P({ envId: id, observationSpace: env.observationSpace.describe(), actionSpace: env.actionSpace.describe(), params, maxEpisodeSteps: def.maxEpisodeSteps, rewardRange: def.rewardRange, seed });
}

export interface Recorded {
  plain: { initialSnapshot: unknown; steps: TrajectoryStep[] };
  plainBytes: number;
  compact: RecordedTrajectory;
}

/** One episode of `id` (with the registry's step limit), recorded up to `maxSteps` steps. */
export function record(id: string, seed: number, maxSteps = 5000, params: Record<string, unknown> = {}): Recorded {
  const { env } = registry.make(id, params);
  const policy = starter(id, seed, params);
  const recorder = new TrajectoryRecorder(maxSteps, true);
  const plainRecorder = new TrajectoryRecorder(maxSteps, true);
  const r0 = env.reset({ seed });
  policy.reset?.(r0.observation, r0.info);
  let obs = r0.observation;
  let info = r0.info;
  recorder.initial(env);
  // Seen through an object that offers no deltaRecorder(), the plain recorder keeps every step whole.
  plainRecorder.initial({ snapshot: () => env.snapshot?.() } as unknown as typeof env);
  const initialSnapshot = toJson(env.snapshot?.());
  const steps: TrajectoryStep[] = [];
  for (let t = 0; t < maxSteps; t++) {
    const seen = toJson(obs);
    const seenText = recorder.seen(obs);
    const plainSeen = jsonText(obs);
    const a = policy.act(obs, info);
    const r = env.step(a);
    const step: TrajectoryStep = { observation: seen, action: toJson(a), reward: r.reward, terminated: r.terminated, truncated: r.truncated };
    if (Object.keys(r.info).length > 0) step.info = toJson(r.info) as Record<string, unknown>;
    step.snapshot = toJson(env.snapshot?.());
    // As a file holds it: JSON has no -0 (a continuous action often has one).
    steps.push(JSON.parse(JSON.stringify(step)) as TrajectoryStep);
    assert.equal(seenText, '', 'the delta layout does not keep the observation');
    recorder.push(seenText!, a, r.reward, r.terminated, r.truncated, r.info, () => env.snapshot?.());
    plainRecorder.push(plainSeen, a, r.reward, r.terminated, r.truncated, r.info, () => env.snapshot?.());
    obs = r.observation;
    info = r.info;
    if (r.terminated || r.truncated) break;
  }
  const p = plainRecorder.trajectory;
  return { plain: { initialSnapshot, steps }, plainBytes: p.stepsJsonl.length + JSON.stringify(p.initialSnapshot ?? null).length, compact: recorder.trajectory };
}

/** Bytes of a recorded trajectory as the file holds it (header's initialSnapshot plus the step lines). */
export function compactBytes(t: RecordedTrajectory): number {
  return t.stepsJsonl.length + JSON.stringify(t.initialSnapshot ?? null).length;
}
