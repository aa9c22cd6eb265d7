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
  /** Arguments are alternating keys (strings) and realm values. */
  record(...keysAndValues: unknown[]): Record<string, unknown>;
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

const makerScripts = new Map<string, vm.Script>();

/**
 * A realm function building `{ [keys[i]]: values[i] }` as an object literal: fixed-shape
 * literals stay fast in a cold realm, where a defineProperty loop costs microseconds per call.
 * Keys come from the environment's observation space, never from the policy.
 */
export function recordMaker(realm: PolicyRealm, keys: readonly string[]): (...values: unknown[]) => Record<string, unknown> {
  if (keys.includes('__proto__')) {
    return (...values) => {
      const args: unknown[] = [];
      keys.forEach((k, i) => args.push(k, values[i]));
      return Reflect.apply(realm.bridge.record, undefined, args) as Record<string, unknown>;
    };
  }
  const source = `(function (${keys.map((_, i) => `v${i}`).join(', ')}) { 'use strict'; return { ${keys.map((k, i) => `${JSON.stringify(k)}: v${i}`).join(', ')} }; })`;
  let script = makerScripts.get(source);
  if (!script) {
    script = new vm.Script(source, { filename: 'policyforge-record.js' });
    makerScripts.set(source, script);
  }
  return script.runInContext(realm.context) as (...values: unknown[]) => Record<string, unknown>;
}
