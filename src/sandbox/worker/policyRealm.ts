/**
 * A fresh vm context per episode for the policy: no `require`, `process` or timers, string
 * code generation and WebAssembly disabled, microtasks confined to the context (so a promise
 * chain left behind by one call never runs inside the host or a later episode).
 */
import * as vm from 'node:vm';
import { CONSTRUCT_SOURCE, PRELUDE_SOURCE } from './prelude';

/** The frozen realm-side object the prelude returns (all of its functions live in the realm). */
export interface RealmBridge {
  parse(json: string): unknown;
  newObject(): Record<string, unknown>;
  newArray(): unknown[];
  readonly Float64Array: Float64ArrayConstructor;
  readonly Float32Array: Float32ArrayConstructor;
  readonly Uint8Array: Uint8ArrayConstructor;
  readonly Int32Array: Int32ArrayConstructor;
  prepare(ctxJson: string, moduleName: string): void;
  instance(): unknown;
  logText(): string;
  logTruncated(): boolean;
}

export interface PolicyRealm {
  readonly context: vm.Context;
  readonly bridge: RealmBridge;
}

const preludeScript = new vm.Script(PRELUDE_SOURCE, { filename: 'policyforge-prelude.js' });
const constructScript = new vm.Script(CONSTRUCT_SOURCE, { filename: 'policyforge-construct.js' });

export function createPolicyRealm(policySeed: number, maxLogChars: number): PolicyRealm {
  // A null-prototype sandbox object: the context's global then has no host `constructor`
  // (the classic `this.constructor.constructor('return process')()` escape).
  const context = vm.createContext(Object.create(null) as object, {
    name: 'policy',
    codeGeneration: { strings: false, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  const boot = preludeScript.runInContext(context) as (seed: number, maxLogChars: number) => RealmBridge;
  return { context, bridge: boot(policySeed, maxLogChars) };
}

/**
 * Evaluates the bundle's top level and then `new Policy(ctx)`. No vm `timeout` here: its
 * watchdog thread costs more than the rest of a short episode's setup, and the host kills a
 * worker stuck in a constructor anyway (the `constructor` deadline).
 */
export function constructPolicy(realm: PolicyRealm, bundle: vm.Script, moduleName: string, ctxJson: string): unknown {
  bundle.runInContext(realm.context);
  realm.bridge.prepare(ctxJson, moduleName);
  constructScript.runInContext(realm.context);
  return realm.bridge.instance();
}
