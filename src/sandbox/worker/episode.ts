/**
 * Runs one episode: environment in this (host) realm, a fresh policy instance in the bundle's
 * hardened vm realm (see policyRealm.ts), and the outcome as an EpisodeRecord. Policy failures
 * end the episode with their status; anything the environment throws is a `runner_fault`,
 * never the policy's.
 *
 * Phases: `setup` (the environment made and reset, the realm, the observation copies) is the
 * worker's and is charged to nobody; then the policy's `module` (when its code runs), its
 * `constructor`, `reset` and each `act`, each under the act limit, and all of them under the
 * episode limit, which starts after setup.
 *
 * Deadlines: no vm timeouts (a watchdog thread per call costs more than a short episode's
 * setup). Module, constructor and `reset` are timed after the fact; the step loop reads the
 * clock every few steps (every step once steps get slow, or when traced), fails a slow `act`
 * itself, and sends heartbeats so the host can kill a worker stuck inside one call (see
 * pool/workerHandle.ts). A setup the worker expects to be slow (a new realm, an environment
 * not made here before or slow to make last time) is announced, so the host's deadline while
 * it runs is the setup's own.
 */
import { EMPTY_INFO, type EpisodeLimits as EnvEpisodeLimits, type Info } from '../../envs/core/env';
import type { EnvRegistry, MadeEnv } from '../../envs/core/registry';
import type { SpaceDescription } from '../../protocol/spaces';
import type { EpisodeError, EpisodeRecord, EpisodeStatus } from '../../protocol/episodes';
import type { PolicyContext } from '../../protocol/policy';
import type { EpisodeLimits } from '../types';
import { actionChecker, INVALID_ACTION, type ActionChecker } from './actionCheck';
import type { EpisodePhase, EpisodeTask } from './messages';
import { declaredAct, jsonToRealm, observationCopier, policyActor, type Actor, type ToRealm } from './observationCopy';
import { policyError } from './policyError';
import type { LoadedBundle } from './loadedBundle';
import { beginEpisode as beginRealmEpisode, constructPolicy, createPolicyRealm, loadModule, moduleRunsNext, type PolicyRealm } from './policyRealm';
import { tracer } from './trace';
import { TrajectoryRecorder } from './trajectory';
import { trackSkills, type SkillTracker } from '../../skills';
import { arenaContext } from '../arena/context';
import { attachChampion, type ChampionPlay } from '../arena/champion';
import { reusableRealm } from './realmReuse';
import { coveredBundle } from './loadedBundle';
import { probesHit } from '../coverage/instrument';

/**
 * Tells the host where the episode is. `announce`: now, not with the next coalesced message.
 * Returns true when a message went out now.
 */
export type Beat = (phase: EpisodePhase, steps: number, ret: number, announce?: boolean) => boolean | void;

interface PolicyInstance {
  act(observation: unknown, info: unknown): unknown;
  reset?(observation: unknown, info: unknown): unknown;
}

/** Most steps the loop runs between clock reads while steps are fast. */
const MAX_CHECK_INTERVAL = 256;

/** Exception messages after which a realm is not reused (see policyError.ts for the wording). */
const UNUSUAL_THROW = /non-Error value|Maximum call stack size exceeded/;

/** A setup that took longer than this is announced the next time (see the header). */
const SLOW_SETUP_MS = 2;

export function runEpisode(msg: EpisodeTask, registry: EnvRegistry, loaded: LoadedBundle, beat: Beat): EpisodeRecord {
  const t0 = performance.now();
  const bundle = msg.limits.coverage === true ? coveredBundle(loaded) : loaded;
  let realm = bundle.realm;
  bundle.realm = undefined;
  const known = setups.get(setupKey(msg));
  const newRealm = !realm || !reusableRealm(realm) || !beginEpisode(realm, msg);
  const announce = newRealm || known === undefined || known.setupMs > SLOW_SETUP_MS;
  // A setup message can also go out unasked (the report interval): then the host's deadline is
  // the setup's, and the end of the setup must be announced as well, or a stuck act() would run
  // under the setup's deadline.
  const told = beat('setup', 0, 0, announce) === true;
  if (newRealm || !realm) {
    realm = createPolicyRealm(bundle, true, tracer.log);
    beginEpisode(realm, msg);
  }
  const run = new EpisodeRun(msg, bundle, beat, realm, t0, told);
  let record = run.run(registry);
  if (run.champion?.threwHardened) {
    // The champion opponent threw in its hardened realm (src/sandbox/arena/champion.ts): the
    // game again with the champion in a fresh unhardened realm, as for a submission below.
    beat('setup', 0, 0, true);
    if (!reusableRealm(realm) || !beginEpisode(realm, msg)) {
      realm = createPolicyRealm(bundle, true, tracer.log);
      beginEpisode(realm, msg);
    }
    record = new EpisodeRun(msg, bundle, beat, realm, t0, true, false).run(registry);
  }
  // The realm serves the next episode unless this one ended in a way that makes it suspect:
  // a deadline, a fault, or a throw that was not an ordinary Error (a non-Error value, or a stack
  // overflow, which may cut a prelude function short).
  if (record.status === 'ok' || record.status === 'invalid_action') {
    bundle.realm = realm;
    return record;
  }
  if (record.status !== 'exception') return record;
  if (!UNUSUAL_THROW.test(record.error?.message ?? '')) bundle.realm = realm;
  // Frozen built-ins may be what threw (a policy patching a prototype, or assigning over a
  // frozen inherited property). The episode again in a fresh, unhardened realm of its own gives
  // exactly the outcome a realm per episode gives; it is deterministic like the first run.
  beat('setup', 0, 0, true);
  const fresh = createPolicyRealm(bundle, false, tracer.log);
  beginEpisode(fresh, msg);
  return new EpisodeRun(msg, bundle, beat, fresh, t0, true).run(registry);
}

function beginEpisode(realm: PolicyRealm, msg: EpisodeTask): boolean {
  return beginRealmEpisode(realm, msg.spec.policySeed, msg.limits.maxLogBytes, msg.traced === true);
}

class EpisodeRun {
  private readonly limits: EpisodeLimits;
  private readonly recorder: TrajectoryRecorder;
  /** The family's skill tracker (src/skills), beside the environment, out of the policy's reach. */
  private skills: SkillTracker | undefined;
  private ret = 0;
  private length = 0;
  private terminated = false;
  private truncated = false;
  /** When the policy's part of the episode began (after setup): the episode deadline's start. */
  private policyStart = 0;
  /** The champion playing the other side of an arena game, if one does. */
  champion: ChampionPlay | null = null;

  constructor(
    private readonly msg: EpisodeTask,
    private readonly bundle: LoadedBundle,
    private readonly beat: Beat,
    private readonly realm: PolicyRealm,
    private readonly t0: number,
    /** The host was told the setup started: tell it when it ends too. */
    private readonly announced: boolean,
    /** A champion opponent plays from its hardened realm (false: a fresh unhardened one). */
    private readonly championHardened = true,
  ) {
    this.limits = msg.limits;
    this.recorder = new TrajectoryRecorder(msg.limits.maxTrajectorySteps, msg.limits.recordSnapshots);
  }

  run(registry: EnvRegistry): EpisodeRecord {
    const { msg, limits, realm, bundle } = this;
    const tSetup = performance.now();
    let made: ReturnType<EnvRegistry['make']>;
    try {
      made = registry.make(msg.envId, msg.params);
    } catch (e) {
      return this.fault(`environment ${msg.envId} could not be created`, e);
    }
    const { env } = made;
    if (msg.opponent) this.champion = attachChampion(env.inner, msg.opponent, msg.envId, made.params, msg.limits, this.championHardened);
    const setup = environmentSetup(msg, made);
    const perRealm = realmSetup(realm, setup);
    let first;
    try {
      first = env.reset({ seed: msg.spec.envSeed });
    } catch (e) {
      return this.fault(`environment ${msg.envId} failed in reset()`, e);
    }
    // BabyAI derives max_steps from the instruction it drew: known only after the reset.
    const stepLimit = env.stepLimit();
    this.recorder.initial(env);
    try {
      this.skills = trackSkills(msg.envId, made.definition.family, env.inner, first.observation);
    } catch (e) {
      return this.fault(`skill tracking for ${msg.envId} failed at the reset`, e);
    }
    const { toRealmObs, toRealmInfo } = perRealm;
    this.policyStart = performance.now();
    setup.setupMs = this.policyStart - tSetup;
    const callMs = Math.min(limits.actTimeoutMs, limits.episodeTimeoutMs);

    let exports: unknown;
    if (moduleRunsNext(realm)) {
      this.beat('module', 0, 0, this.announced);
      const t = performance.now();
      try {
        exports = loadModule(realm);
      } catch (e) {
        return this.finish('exception', policyError(e, bundle.sourceMap, "loading the policy's module threw"));
      }
      const ms = performance.now() - t;
      if (ms > callMs) return this.finish('timeout', { message: `loading the policy's module (its top-level code) ran ${Math.round(ms)} ms, longer than the ${callMs} ms limit`, deadline: 'module' });
      this.beat('constructor', 0, 0);
    } else {
      this.beat('constructor', 0, 0, this.announced);
      exports = loadModule(realm);
    }

    let policy: PolicyInstance;
    const tConstruct = performance.now();
    try {
      policy = constructPolicy(realm, exports, perRealm.contextTemplate, msg.spec.policySeed, stepLimit) as PolicyInstance;
    } catch (e) {
      return this.finish('exception', policyError(e, bundle.sourceMap, 'new Policy(ctx) threw'));
    }
    const constructMs = performance.now() - tConstruct;
    if (constructMs > callMs) return this.finish('timeout', { message: `new Policy(ctx) ran ${Math.round(constructMs)} ms, longer than the ${callMs} ms limit`, deadline: 'constructor' });

    const act = (perRealm.act ??= policyActor(setup.observationSpace, realm, toRealmObs, bundle.borrowObservation ? declaredAct(realm) : undefined));

    if (typeof policy.reset === 'function') {
      this.beat('reset', 0, 0);
      const tReset = performance.now();
      try {
        policy.reset(toRealmObs(first.observation), toRealmInfo(first.info));
      } catch (e) {
        return this.finish('exception', policyError(e, bundle.sourceMap, 'reset() threw'));
      }
      const resetMs = performance.now() - tReset;
      if (resetMs > limits.actTimeoutMs) return this.finish('timeout', { message: `reset() ran ${Math.round(resetMs)} ms, longer than the ${limits.actTimeoutMs} ms limit`, deadline: 'reset' });
    }

    this.beat('act', 0, 0);
    return this.loop(env, policy, first.observation, first.info, act, perRealm, setup.checker);
  }

  /**
   * The hot loop, kept small so V8 optimizes it on its own. `this.length` counts finished steps;
   * messages number steps from 1, so the step in progress is `this.length + 1`.
   */
  private loop(env: EnvEpisodeLimits<unknown, unknown>, policy: PolicyInstance, observation: unknown, info: Info, act: Actor, infos: Pick<RealmSetup, 'toRealmInfo' | 'emptyInfo'>, checker: ActionChecker): EpisodeRecord {
    const { limits, recorder, skills } = this;
    const { toRealmInfo, emptyInfo } = infos;
    const snapshot = (): unknown => env.snapshot();
    let lastCheck = performance.now();
    let lastBeat = lastCheck;
    const beatEvery = Math.max(5, limits.actTimeoutMs / 4);
    const fastInterval = Math.min(4, limits.actTimeoutMs / 16);
    // Traced: the position after every step goes to the trace pipe (see trace.ts).
    const everyStep = this.msg.traced === true;
    let checkEvery = 1;
    let countdown = 1;
    for (;;) {
      const seen = recorder.seen(observation);
      let action: unknown;
      let value: unknown;
      try {
        // Most steps have no info; a call fewer per step (V8 inlines little more into this loop).
        action = act(policy, observation, info === EMPTY_INFO ? emptyInfo : toRealmInfo(info));
      } catch (e) {
        return this.finish('exception', policyError(e, this.bundle.sourceMap, `act() threw at step ${this.length + 1}`));
      }
      try {
        value = checker.check(action);
      } catch (e) {
        // Reading the action ran policy code (a getter or a Proxy) that threw.
        return this.finish('exception', policyError(e, this.bundle.sourceMap, `reading the action of step ${this.length + 1} threw`));
      }
      if (value === INVALID_ACTION) return this.finish('invalid_action', { message: `step ${this.length + 1}: ${checker.explain(action)}` });
      let r;
      try {
        r = env.step(value);
      } catch (e) {
        return this.fault(`environment ${this.msg.envId} failed in step() at step ${this.length + 1}`, e);
      }
      this.ret += r.reward;
      this.length++;
      this.terminated = r.terminated;
      this.truncated = r.truncated;
      if (skills !== undefined) skills.step(value, r);
      if (seen !== undefined) recorder.push(seen, value, r.reward, r.terminated, r.truncated, r.info, snapshot);
      else recorder.skip();
      observation = r.observation;
      info = r.info;
      const done = r.terminated || r.truncated;

      if (--countdown === 0 || done) {
        const now = performance.now();
        const dt = now - lastCheck;
        if (checkEvery === 1 && dt > limits.actTimeoutMs) {
          return this.finish('timeout', { message: `act() at step ${this.length} ran ${Math.round(dt)} ms, longer than the ${limits.actTimeoutMs} ms limit`, deadline: 'act' });
        }
        if (now - this.policyStart > limits.episodeTimeoutMs) {
          return this.finish('timeout', { message: `the episode ran longer than ${limits.episodeTimeoutMs} ms (${this.length} steps)`, deadline: 'episode' });
        }
        checkEvery = dt < fastInterval && !everyStep ? Math.min(checkEvery * 2, MAX_CHECK_INTERVAL) : 1;
        countdown = checkEvery;
        lastCheck = now;
        if (everyStep || now - lastBeat >= beatEvery) {
          this.beat('act', this.length, this.ret);
          lastBeat = now;
        }
      }
      if (done) return this.finish('ok');
    }
  }

  private finish(status: EpisodeStatus, error?: EpisodeError): EpisodeRecord {
    const bridge = this.realm.bridge;
    const record: EpisodeRecord = {
      caseIndex: this.msg.spec.caseIndex,
      status,
      return: this.ret,
      length: this.length,
      terminated: this.terminated,
      truncated: this.truncated,
      wallMs: Math.round((performance.now() - this.t0) * 1000) / 1000,
      trajectory: this.recorder.trajectory,
      log: { text: bridge.logText(), truncated: bridge.logTruncated() },
    };
    if (error) record.error = error;
    if (this.skills !== undefined && status !== 'runner_fault') record.skills = this.skills.outcomes();
    const { coverage } = this.realm;
    if (coverage !== undefined && status !== 'runner_fault') record.coverage = probesHit(coverage, this.bundle.probes ?? 0);
    return record;
  }

  private fault(what: string, e: unknown): EpisodeRecord {
    return this.finish('runner_fault', { message: `${what}: ${e instanceof Error ? e.message : String(e)}`, ...(e instanceof Error && e.stack ? { stack: e.stack } : {}) });
  }
}

/** What every episode of one environment configuration shares, made once per worker. */
interface EnvironmentSetup {
  key: string;
  /** How long the last episode's setup took (see SLOW_SETUP_MS). */
  setupMs: number;
  observationSpace: SpaceDescription;
  /** The policy context without its seed, as JSON. */
  contextJson: string;
  checker: ActionChecker;
}

const SETUPS_KEPT = 16;
const setups = new Map<string, EnvironmentSetup>();

/**
 * Spaces, context and action check depend only on the environment id and its parameters (a
 * space is fixed when the environment is made), so episodes after the first reuse them.
 */
function setupKey(task: EpisodeTask): string {
  return `${task.envId}\n${JSON.stringify(task.params)}`;
}

function environmentSetup(task: EpisodeTask, made: MadeEnv): EnvironmentSetup {
  const key = setupKey(task);
  let setup = setups.get(key);
  if (setup) return setup;
  const { env, definition } = made;
  const observationSpace = env.observationSpace.describe();
  const actionSpace = env.actionSpace.describe();
  const context: Omit<PolicyContext, 'seed'> = {
    envId: definition.id,
    observationSpace,
    actionSpace,
    params: made.params,
    maxEpisodeSteps: definition.maxEpisodeSteps,
    rewardRange: definition.rewardRange,
    ...arenaContext(env.inner, made.params),
  };
  // JSON has no infinities: the realm turns "inf" / "-inf" back (see prelude.ts). The seed,
  // the one field that differs by episode, is added to a copy per episode, last, as before.
  const json = JSON.stringify(context, (_k, v: unknown) => (v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v));
  setup = { key, setupMs: 0, observationSpace, contextJson: json, checker: actionChecker(env.actionSpace, actionSpace) };
  if (setups.size >= SETUPS_KEPT) setups.clear();
  setups.set(key, setup);
  return setup;
}

interface RealmSetup {
  contextTemplate: object;
  toRealmObs: ToRealm;
  toRealmInfo: (info: Info) => unknown;
  /** One frozen empty info: nearly every step has none, and copying nothing is free. */
  emptyInfo: object;
  /** Made once the first episode's policy is constructed: a shared module has run by then. */
  act?: Actor;
}

/** The observation copies and the act call for one environment setup in one realm, made once per realm. */
function realmSetup(realm: PolicyRealm, setup: EnvironmentSetup): RealmSetup {
  const cached = realm.setups.get(setup.key) as RealmSetup | undefined;
  if (cached) return cached;
  const toRealmObs = observationCopier(setup.observationSpace, realm);
  const emptyInfo = Object.freeze(realm.bridge.newObject());
  const made: RealmSetup = {
    emptyInfo,
    contextTemplate: realm.bridge.contextTemplate(setup.contextJson),
    toRealmObs,
    toRealmInfo: (info: Info): unknown => (info === EMPTY_INFO || isEmpty(info) ? emptyInfo : jsonToRealm(info, realm.bridge)),
  };
  realm.setups.set(setup.key, made);
  return made;
}

function isEmpty(info: Info): boolean {
  for (const _ in info) return false;
  return true;
}
