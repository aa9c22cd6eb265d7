/**
 * The policy's vm context: no `require`, `process` or timers, string code generation and
 * WebAssembly disabled, microtasks confined to the context.
 *
 * One hardened realm serves the episodes of one bundle (see episode.ts): its intrinsics are
 * frozen once, and every episode runs the bundle's module code again (unless it has no state of
 * its own, see modulePlan.ts), so each gets a fresh policy instance and fresh module state
 * (closures, class statics, module variables). No
 * script is ever evaluated in a realm after policy code first ran in it — the bundle is a
 * compiled function and everything else is a direct call — so the context's microtask queue is
 * never drained: a promise callback a policy schedules never runs, in its episode or a later one.
 */
import * as vm from 'node:vm';
import { BUNDLE_FILENAME, POLICY_GLOBAL } from '../bundle/constants';
import { SEAL_PARAMETER } from './modulePlan';
import { PRELUDE_SOURCE } from './prelude';
import { clearCounters, COVERAGE_PARAMETER } from '../coverage/instrument';

/** The frozen realm-side object the prelude returns (all of its functions live in the realm). */
export interface RealmBridge {
  parse(json: string): unknown;
  newObject(): Record<string, unknown>;
  /** Arguments are alternating keys (strings) and realm values. */
  record(...keysAndValues: unknown[]): Record<string, unknown>;
  newArray(): unknown[];
  /** The realm's typed array constructors, captured before any policy code ran. */
  readonly Float64Array: Float64ArrayConstructor;
  readonly Float32Array: Float32ArrayConstructor;
  readonly Uint8Array: Uint8ArrayConstructor;
  readonly Int32Array: Int32ArrayConstructor;
  harden(): void;
  beginEpisode(policySeed: number, maxLogChars: number, checkGlobals: boolean, namesChanged: boolean, streamLog: boolean): boolean;
  contextTemplate(json: string): object;
  construct(module: unknown, template: object, seed: number, maxEpisodeSteps: number | null): unknown;
  seal(values: unknown[]): void;
  noSeal(values: unknown[]): void;
  logText(): string;
  logTruncated(): boolean;
}

export interface PolicyRealm {
  readonly context: vm.Context;
  readonly bridge: RealmBridge;
  /** Intrinsics frozen: the realm may serve more than one episode. */
  readonly hardened: boolean;
  /** Runs the bundle's module code once more and returns its exports. */
  readonly evaluateModule: () => unknown;
  /** The exports of a module that serves every episode of this realm, once it ran (see modulePlan.ts). */
  sharedModule?: unknown;
  /** Whether the module runs once for all episodes (sealed) rather than once per episode. */
  readonly shareModule: boolean;
  readonly mayAddGlobals: boolean;
  /** Observation record makers by source (see recordMaker). */
  readonly makers: Map<string, (...values: unknown[]) => Record<string, unknown>>;
  /** Per environment setup: observation copies and the act call made for this realm (see episode.ts). */
  readonly setups: Map<string, unknown>;
  /** Episodes begun in this realm. */
  episodes: number;
  /** Own keys of the context object once hardened: every string-keyed global lands there too. */
  readonly contextKeys: number;
  /** The coverage counters (a realm Uint8Array, one per probe) when the code has probes, cleared as each episode begins. */
  readonly coverage?: Uint8Array;
}

const preludeScript = new vm.Script(PRELUDE_SOURCE, { filename: 'policyforge-prelude.js' });

/** Where a realm's log lines go as they are written, while its episode is traced (see prelude.ts). */
export type LogSink = (text: string, truncated: boolean) => void;

/** What a realm runs: the bundle as it came, or as modulePlan.ts rewrote it to be shared. */
export interface RealmCode {
  code: string;
  /** `code` seals its module's values and may serve every episode of a hardened realm. */
  shared: boolean;
  /** The code may add globals (see modulePlan.ts); if not, none are looked for between episodes. */
  mayAddGlobals: boolean;
  /** Coverage probes the code writes to (src/sandbox/coverage/instrument.ts); absent or 0 for none. */
  probes?: number;
}

export function createPolicyRealm(bundle: RealmCode, hardened: boolean, sink: LogSink): PolicyRealm {
  // A null-prototype sandbox object: the context's global then has no host `constructor`
  // (the classic `this.constructor.constructor('return process')()` escape).
  const context = vm.createContext(Object.create(null) as object, {
    name: 'policy',
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  const boot = preludeScript.runInContext(context) as (sink: LogSink) => RealmBridge;
  const bridge = boot(sink);
  if (hardened) bridge.harden();
  // The bundle as a function body (lines unchanged, so the source map holds): each call is a
  // fresh module instance, and its `var` stays local instead of becoming a global.
  // A shared module is sealed only in a hardened realm: the fresh realm an episode falls back to
  // gives the outcome of a module of its own, writes to its values included.
  const shareModule = bundle.shared && hardened;
  const globals = hardened ? readOnlyGlobals(context) : NO_GLOBALS;
  const compiled = compileBundle(context, bundle.code, globals);
  const seal = shareModule ? bridge.seal : bridge.noSeal;
  // The realm's own typed array: the policy's code only ever holds realm values.
  const coverage = bundle.probes ? new bridge.Uint8Array(bundle.probes) : undefined;
  const evaluateModule = (): unknown => compiled.fn(seal, coverage, ...compiled.values);
  return { context, bridge, hardened, evaluateModule, shareModule, mayAddGlobals: bundle.mayAddGlobals, makers: new Map(), setups: new Map(), episodes: 0, contextKeys: Reflect.ownKeys(context).length, ...(coverage ? { coverage } : {}) };
}

interface RealmGlobals {
  readonly names: readonly string[];
  readonly values: readonly unknown[];
}
const NO_GLOBALS: RealmGlobals = { names: [], values: [] };
/** Parameter names strict code may not use, or that the wrapper itself uses. */
const NOT_PARAMETERS = new Set(['eval', 'arguments', SEAL_PARAMETER, COVERAGE_PARAMETER]);

/**
 * The hardened realm's data globals (`Math`, `Object`, `Float64Array`, `Date`…), to hand to the
 * bundle as parameters of the same names. Inside a vm context every global lookup goes through
 * the context's interceptors, some thirty times slower than reading a local: a policy that calls
 * `Math` functions in a loop ran about ten times slower in the sandbox than in plain Node. In a
 * hardened realm those globals are read-only and non-configurable (prelude.ts `harden`), so a
 * parameter holding the same value is the same binding as far as the policy can observe;
 * accessor globals are left to the lookup, since a getter may answer differently per read.
 */
function readOnlyGlobals(context: vm.Context): RealmGlobals {
  const listed = vm.runInContext(
    `Object.getOwnPropertyNames(globalThis).filter((n) => { const d = Object.getOwnPropertyDescriptor(globalThis, n); return d !== undefined && 'value' in d && !d.writable && !d.configurable; })`,
    context,
  ) as string[];
  const names = [...listed].filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && !NOT_PARAMETERS.has(n));
  if (names.length === 0) return NO_GLOBALS;
  const read = vm.compileFunction(`return [${names.join(', ')}];`, [], { parsingContext: context }) as () => unknown[];
  return { names, values: [...read()] };
}

/**
 * The bundle as a function of the seal, the coverage counters and the given globals. The policy's
 * own declarations sit inside the bundle's module function (esbuild's IIFE), so they shadow these
 * parameters as they would shadow the globals; code that declares one at the top level of the
 * body instead (a `let Map` there would clash) is compiled without them: the same behaviour,
 * only slower.
 */
function compileBundle(context: vm.Context, code: string, globals: RealmGlobals): { fn: (...args: unknown[]) => unknown; values: readonly unknown[] } {
  const source = `${code}\n;return ${POLICY_GLOBAL};`;
  const compile = (names: readonly string[]) =>
    vm.compileFunction(source, [SEAL_PARAMETER, COVERAGE_PARAMETER, ...names], { parsingContext: context, filename: BUNDLE_FILENAME }) as (...args: unknown[]) => unknown;
  if (globals.names.length > 0) {
    try {
      return { fn: compile(globals.names), values: globals.values };
    } catch (e) {
      if (!(e instanceof SyntaxError) && (e as Error)?.name !== 'SyntaxError') throw e;
    }
  }
  return { fn: compile([]), values: [] };
}

/** Per-episode state reset (see prelude.ts); false if the realm could not be made clean. */
export function beginEpisode(realm: PolicyRealm, policySeed: number, maxLogChars: number, streamLog: boolean): boolean {
  realm.episodes++;
  if (realm.coverage && !clearCounters(realm.coverage)) return false;
  // Listing keys costs microseconds (the context object holds every global's name): skipped for
  // code that cannot reach the global object.
  const check = realm.mayAddGlobals;
  return realm.bridge.beginEpisode(policySeed, maxLogChars, check, check && Reflect.ownKeys(realm.context).length !== realm.contextKeys, streamLog);
}

/** Whether the next episode runs the bundle's module code (false once a shared module ran). */
export function moduleRunsNext(realm: PolicyRealm): boolean {
  return !realm.shareModule || realm.sharedModule === undefined;
}

/**
 * The module's exports for the next episode: its code runs again, unless it is shared and ran.
 * No vm `timeout` here or in constructPolicy: its watchdog thread costs more than the rest of a
 * short episode's setup, and the host kills a worker stuck in either (the `module` and
 * `constructor` deadlines).
 */
export function loadModule(realm: PolicyRealm): unknown {
  if (!realm.shareModule) return realm.evaluateModule();
  // Kept only once it ran to the end (sealed): a module that threw runs again next episode.
  return (realm.sharedModule ??= realm.evaluateModule());
}

/** `new Policy(ctx)` for the exports loadModule returned. */
export function constructPolicy(realm: PolicyRealm, exports: unknown, contextTemplate: object, seed: number, maxEpisodeSteps: number | null): unknown {
  return realm.bridge.construct(exports, contextTemplate, seed, maxEpisodeSteps);
}

/**
 * A realm function building `{ [keys[i]]: values[i] }` as an object literal: fixed-shape
 * literals stay fast, where a defineProperty loop costs microseconds per call. Compiled, not
 * evaluated, so no microtask checkpoint runs in the realm. Keys come from the environment's
 * observation space, never from the policy.
 */
export function recordMaker(realm: PolicyRealm, keys: readonly string[]): (...values: unknown[]) => Record<string, unknown> {
  if (keys.includes('__proto__')) {
    return (...values) => {
      const args: unknown[] = [];
      keys.forEach((k, i) => args.push(k, values[i]));
      return Reflect.apply(realm.bridge.record, undefined, args) as Record<string, unknown>;
    };
  }
  const params = keys.map((_, i) => `v${i}`);
  const body = `'use strict'; return { ${keys.map((k, i) => `${JSON.stringify(k)}: v${i}`).join(', ')} };`;
  let make = realm.makers.get(body);
  if (!make) {
    make = vm.compileFunction(body, params, { parsingContext: realm.context, filename: 'policyforge-record.js' }) as (...values: unknown[]) => Record<string, unknown>;
    realm.makers.set(body, make);
  }
  return make;
}
