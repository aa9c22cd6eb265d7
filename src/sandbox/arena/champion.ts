/**
 * A champion opponent in a sandbox worker: a promoted submission's bundle plays the other side of
 * an arena game from a policy realm of its own (fresh for every game), with the same act limit as
 * the policy under test. What it does wrong (throws, runs past the limit, answers outside its
 * action space) ends the game as the champion's loss (sideEnv.ts). A champion stuck in an endless
 * loop is stopped by the host's deadline like any policy, and that game is the worker's loss to
 * report: it is charged to the submission (a promoted champion has already played its games
 * within the limits).
 */
import { ArenaSideEnv } from '../../envs/arena/sideEnv';
import type { SidePolicy } from '../../envs/core/multiAgent';
import type { PolicyContext } from '../../protocol/policy';
import type { EpisodeLimits } from '../types';
import { actionChecker, INVALID_ACTION } from '../worker/actionCheck';
import type { LoadedBundle } from '../worker/loadedBundle';
import { observationCopier } from '../worker/observationCopy';
import { policyError } from '../worker/policyError';
import { beginEpisode, constructPolicy, createPolicyRealm, loadModule } from '../worker/policyRealm';

interface RealmPolicy {
  act(observation: unknown, info: unknown): unknown;
}

/** Attaches `champion` as the other side of `env` when it is an arena side view; false otherwise. */
export function attachChampion(env: unknown, champion: LoadedBundle, envId: string, params: Readonly<Record<string, number | boolean | string>>, limits: EpisodeLimits): boolean {
  if (!(env instanceof ArenaSideEnv)) return false;
  const other = env.opponentSide();
  const { opponent: _o, ...gameParams } = params;
  const context: Omit<PolicyContext, 'seed'> = {
    envId,
    observationSpace: other.observationSpace.describe(),
    actionSpace: other.actionSpace.describe(),
    params: { ...gameParams, side: other.side },
    maxEpisodeSteps: (env as { stepLimit?: () => number | null }).stepLimit?.() ?? null,
    rewardRange: [-1, 1],
    side: other.side,
    ownAgents: other.agents,
  };
  const contextJson = JSON.stringify(context);
  const checker = actionChecker(other.actionSpace, context.actionSpace);
  const limit = Math.min(limits.actTimeoutMs, limits.episodeTimeoutMs);
  env.useOpponent((seed): SidePolicy => {
    const realm = createPolicyRealm(champion, false, () => undefined);
    beginEpisode(realm, seed, limits.maxLogBytes, false);
    const copy = observationCopier(context.observationSpace, realm);
    const timed = <T>(what: string, fn: () => T): T => {
      const t = performance.now();
      let out: T;
      try {
        out = fn();
      } catch (e) {
        throw new Error(`the champion's ${what} threw: ${policyError(e, champion.sourceMap, what).message}`);
      }
      const ms = performance.now() - t;
      if (ms > limit) throw new Error(`the champion's ${what} ran ${Math.round(ms)} ms, longer than the ${limit} ms limit`);
      return out;
    };
    const exports = timed('module', () => loadModule(realm));
    const policy = timed('constructor', () => constructPolicy(realm, exports, realm.bridge.contextTemplate(contextJson), seed, context.maxEpisodeSteps)) as RealmPolicy;
    const info = realm.bridge.newObject();
    return (observations) => {
      const action = timed('act()', () => policy.act(copy(observations), info));
      const value = checker.check(action);
      if (value === INVALID_ACTION) throw new Error(`the champion's action is outside its space: ${checker.explain(action)}`);
      return value as Record<string, unknown>;
    };
  });
  return true;
}
