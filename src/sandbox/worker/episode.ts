/**
 * Runs one episode: environment in this (host) realm, policy in a fresh vm realm, and the
 * outcome as an EpisodeRecord. Policy failures end the episode with their status; anything
 * the environment throws is a `runner_fault`, never the policy's.
 *
 * Deadlines: the bundle's top level and the constructor run under vm timeouts. `act` runs
 * without one (a vm timeout costs a watchdog thread per call); instead the loop reads the clock
 * every few steps (every step once steps get slow), fails a slow `act` itself, and sends
 * heartbeats so the host can kill a worker stuck inside one `act` (see pool/workerHandle.ts).
 */
import type { Script } from 'node:vm';
import type { EnvRegistry } from '../../envs/core/registry';
import { EMPTY_INFO, type Info } from '../../envs/core/env';
import type { EpisodeError, EpisodeRecord, EpisodeStatus } from '../../protocol/episodes';
import type { PolicyContext } from '../../protocol/policy';
import { POLICY_GLOBAL } from '../bundle/constants';
import { actionChecker } from './actionCheck';
import type { EpisodePhase, RunEpisodeMessage } from './messages';
import { observationCopier, jsonToRealm, toJson } from './observationCopy';
import { BundleSourceMap, policyError } from './policyError';
import { constructPolicy, createPolicyRealm, isVmTimeout } from './policyRealm';
import { TrajectoryRecorder } from './trajectory';

export interface LoadedBundle {
  script: Script;
  sourceMap: BundleSourceMap;
}

export type Beat = (phase: EpisodePhase, steps: number, ret: number) => void;

/** Most steps the loop runs between clock reads while steps are fast. */
const MAX_CHECK_INTERVAL = 256;

export function runEpisode(msg: RunEpisodeMessage, registry: EnvRegistry, bundle: LoadedBundle, beat: Beat): EpisodeRecord {
  const t0 = performance.now();
  const { limits, spec } = msg;
  let ret = 0;
  let length = 0;
  let terminated = false;
  let truncated = false;
  const recorder = new TrajectoryRecorder(limits.maxTrajectorySteps, limits.recordSnapshots);
  let logText = (): { text: string; truncated: boolean } => ({ text: '', truncated: false });
  const finish = (status: EpisodeStatus, error?: EpisodeError): EpisodeRecord => {
    const record: EpisodeRecord = {
      caseIndex: spec.caseIndex,
      status,
      return: ret,
      length,
      terminated,
      truncated,
      wallMs: Math.round((performance.now() - t0) * 1000) / 1000,
      trajectory: recorder.trajectory,
      log: logText(),
    };
    if (error) record.error = error;
    return record;
  };
  const fault = (what: string, e: unknown): EpisodeRecord =>
    finish('runner_fault', { message: `${what}: ${e instanceof Error ? e.message : String(e)}`, ...(e instanceof Error && e.stack ? { stack: e.stack } : {}) });

  let made: ReturnType<EnvRegistry['make']>;
  try {
    made = registry.make(msg.envId, msg.params);
  } catch (e) {
    return fault(`environment ${msg.envId} could not be created`, e);
  }
  const { env, definition } = made;
  const observationSpace = env.observationSpace.describe();
  const actionSpace = env.actionSpace.describe();

  const realm = createPolicyRealm(spec.policySeed, limits.maxLogBytes);
  logText = () => ({ text: realm.bridge.logText(), truncated: realm.bridge.logTruncated() });
  const context: PolicyContext = {
    envId: definition.id,
    observationSpace,
    actionSpace,
    params: made.params,
    maxEpisodeSteps: definition.maxEpisodeSteps,
    rewardRange: definition.rewardRange,
    seed: spec.policySeed,
  };
  const ctxJson = JSON.stringify(context, (_k, v: unknown) => (v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v));

  beat('constructor', 0, 0);
  let policy: unknown;
  try {
    policy = constructPolicy(realm, bundle.script, POLICY_GLOBAL, ctxJson, Math.min(limits.actTimeoutMs, limits.episodeTimeoutMs));
  } catch (e) {
    if (isVmTimeout(e)) return finish('timeout', { message: `the policy's module or constructor ran longer than ${Math.min(limits.actTimeoutMs, limits.episodeTimeoutMs)} ms`, deadline: 'constructor' });
    return finish('exception', policyError(e, bundle.sourceMap, 'new Policy(ctx) threw'));
  }
  const p = policy as { act?: unknown; reset?: unknown };

  const toRealmObs = observationCopier(observationSpace, realm.bridge);
  const checkAction = actionChecker(env.actionSpace, actionSpace);
  const snapshot = (): unknown => env.snapshot();
  // One frozen empty info per episode: nearly every step has no info, and copying nothing is free.
  const emptyInfo = Object.freeze(realm.bridge.newObject());
  const toRealmInfo = (info: Info): unknown => (info === EMPTY_INFO || isEmpty(info) ? emptyInfo : jsonToRealm(info, realm.bridge));

  let observation: unknown;
  let info: Info;
  try {
    const r = env.reset({ seed: spec.envSeed });
    observation = r.observation;
    info = r.info;
  } catch (e) {
    return fault(`environment ${msg.envId} failed in reset()`, e);
  }
  recorder.initial(snapshot);

  const tReset = performance.now();
  try {
    if (typeof p.reset === 'function') {
      beat('reset', 0, 0);
      (p as { reset(o: unknown, i: unknown): unknown }).reset(toRealmObs(observation), toRealmInfo(info));
    }
  } catch (e) {
    return finish('exception', policyError(e, bundle.sourceMap, 'reset() threw'));
  }
  if (performance.now() - tReset > limits.actTimeoutMs) return finish('timeout', { message: `reset() ran longer than ${limits.actTimeoutMs} ms`, deadline: 'act' });

  beat('act', 0, 0);
  const start = performance.now();
  let lastCheck = start;
  let lastBeat = start;
  const beatEvery = Math.max(5, limits.actTimeoutMs / 4);
  const fastInterval = Math.min(4, limits.actTimeoutMs / 16);
  let checkEvery = 1;
  let countdown = 1;
  for (;;) {
    let action: unknown;
    const seen = recorder.recording ? toJson(observation) : undefined;
    try {
      action = (p as { act(o: unknown, i: unknown): unknown }).act(toRealmObs(observation), toRealmInfo(info));
    } catch (e) {
      return finish('exception', policyError(e, bundle.sourceMap, `act() threw at step ${length}`));
    }
    let checked;
    try {
      checked = checkAction(action);
    } catch (e) {
      // Reading the action ran policy code (a getter or a Proxy) that threw.
      return finish('exception', policyError(e, bundle.sourceMap, `reading the action of step ${length} threw`));
    }
    if (!checked.ok) return finish('invalid_action', { message: `step ${length}: ${checked.message}` });
    let r;
    try {
      r = env.step(checked.value);
    } catch (e) {
      return fault(`environment ${msg.envId} failed in step() at step ${length}`, e);
    }
    ret += r.reward;
    length++;
    terminated = r.terminated;
    truncated = r.truncated;
    recorder.push(seen, checked.json, r.reward, r.terminated, r.truncated, r.info, snapshot);
    observation = r.observation;
    info = r.info;

    if (--countdown === 0 || terminated || truncated) {
      const now = performance.now();
      const dt = now - lastCheck;
      if (checkEvery === 1 && dt > limits.actTimeoutMs) {
        return finish('timeout', { message: `act() at step ${length - 1} ran ${Math.round(dt)} ms, longer than the ${limits.actTimeoutMs} ms limit`, deadline: 'act' });
      }
      if (now - t0 > limits.episodeTimeoutMs) {
        return finish('timeout', { message: `the episode ran longer than ${limits.episodeTimeoutMs} ms (${length} steps)`, deadline: 'episode' });
      }
      checkEvery = dt < fastInterval ? Math.min(checkEvery * 2, MAX_CHECK_INTERVAL) : 1;
      countdown = checkEvery;
      lastCheck = now;
      if (now - lastBeat >= beatEvery) {
        beat('act', length, ret);
        lastBeat = now;
      }
    }
    if (terminated || truncated) break;
  }
  return finish('ok');
}

function isEmpty(info: Info): boolean {
  for (const _ in info) return false;
  return true;
}
