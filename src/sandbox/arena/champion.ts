/**
 * A champion opponent in a sandbox worker: a promoted submission's bundle plays the other side of
 * an arena game from a policy realm of its own, with the same act limit as the policy under test.
 * The realm is hardened and serves the champion's games in this worker one after the other, as a
 * submission's realm serves its episodes (fresh module state and policy per game, or a sealed
 * shared module; its globals passed as locals): a champion plays as fast as it did as a
 * submission. When it throws in the hardened realm, the worker plays that game again with the
 * champion in a fresh unhardened realm (episode.ts), as it does for a submission, since frozen
 * built-ins may be what threw; `ChampionPlay.threwHardened` says so. What it does wrong (throws, runs past the limit, answers outside its
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
import { beginEpisode, constructPolicy, createPolicyRealm, loadModule, type PolicyRealm } from '../worker/policyRealm';
import { reusableRealm } from '../worker/realmReuse';

interface RealmPolicy {
  act(observation: unknown, info: unknown): unknown;
}

/** What a game learnt about the champion's play. */
export interface ChampionPlay {
  /** It threw in a hardened realm: the game is to be played again with `hardened` false. */
  threwHardened: boolean;
}

/**
 * Each champion's hardened realm in this worker, apart from the bundle's own `realm` field: the
 * same bundle may be the submission too (a resubmitted champion), and each side needs a realm of
 * its own.
 */
const championRealms = new WeakMap<LoadedBundle, PolicyRealm>();

const noLog = (): void => undefined;

/** Attaches `champion` as the other side of `env` when it is an arena side view; null otherwise. */
export function attachChampion(env: unknown, champion: LoadedBundle, envId: string, params: Readonly<Record<string, number | boolean | string>>, limits: EpisodeLimits, hardened = true): ChampionPlay | null {
  if (!(env instanceof ArenaSideEnv)) return null;
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
  const play: ChampionPlay = { threwHardened: false };
  env.useOpponent((seed): SidePolicy => {
    const realm = championRealm(champion, hardened, seed, limits.maxLogBytes);
    // A realm that saw its champion fail serves no later game (the submission's rule: a failed
    // episode may leave a realm in a state no fresh one has).
    const discard = (): void => {
      if (championRealms.get(champion) === realm) championRealms.delete(champion);
    };
    const copy = observationCopier(context.observationSpace, realm);
    const timed = <T>(what: string, fn: () => T): T => {
      const t = performance.now();
      let out: T;
      try {
        out = fn();
      } catch (e) {
        discard();
        if (hardened) play.threwHardened = true;
        throw new Error(`the champion's ${what} threw: ${policyError(e, champion.sourceMap, what).message}`);
      }
      const ms = performance.now() - t;
      if (ms > limit) {
        discard();
        throw new Error(`the champion's ${what} ran ${Math.round(ms)} ms, longer than the ${limit} ms limit`);
      }
      return out;
    };
    const exports = timed('module', () => loadModule(realm));
    const policy = timed('constructor', () => constructPolicy(realm, exports, realm.bridge.contextTemplate(contextJson), seed, context.maxEpisodeSteps)) as RealmPolicy;
    const info = realm.bridge.newObject();
    return (observations) => {
      const action = timed('act()', () => policy.act(copy(observations), info));
      const value = checker.check(action);
      if (value === INVALID_ACTION) {
        discard();
        throw new Error(`the champion's action is outside its space: ${checker.explain(action)}`);
      }
      return value as Record<string, unknown>;
    };
  });
  return play;
}

/**
 * The realm for the champion's next game, begun for it: its kept hardened realm when that can
 * serve another game, else a new one (kept for the games after). Games in a worker run one at a
 * time, so the realm is kept at once rather than handed back when the game ends.
 */
function championRealm(champion: LoadedBundle, hardened: boolean, seed: number, maxLogBytes: number): PolicyRealm {
  if (!hardened) {
    const fresh = createPolicyRealm(champion, false, noLog);
    beginEpisode(fresh, seed, maxLogBytes, false);
    return fresh;
  }
  const kept = championRealms.get(champion);
  if (kept && reusableRealm(kept) && beginEpisode(kept, seed, maxLogBytes, false)) return kept;
  const realm = createPolicyRealm(champion, true, noLog);
  beginEpisode(realm, seed, maxLogBytes, false);
  championRealms.set(champion, realm);
  return realm;
}
