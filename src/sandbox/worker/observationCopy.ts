/**
 * Copies host values (observations, infos) into realm-owned values, so the policy never
 * holds a host object (whose `constructor` chain would lead back to the host's `Function`
 * and `process`). Copies use only host intrinsics and realm constructors captured before any
 * policy code ran, never methods looked up on realm objects.
 */
import * as vm from 'node:vm';
import type { SpaceDescription } from '../../protocol/spaces';
import { recordMaker, type PolicyRealm, type RealmBridge } from './policyRealm';

export type ToRealm = (value: unknown) => unknown;

const defineProperty = Object.defineProperty;
const typedArraySet = (Object.getPrototypeOf(Uint8Array.prototype) as { set: (this: ArrayLike<number>, src: ArrayLike<number>) => void }).set;

export function observationCopier(space: SpaceDescription, realm: PolicyRealm): ToRealm {
  const bridge = realm.bridge;
  switch (space.type) {
    case 'Box': {
      const size = space.shape.reduce((a, b) => a * b, 1);
      const Ctor = space.dtype === 'uint8' ? bridge.Uint8Array : space.dtype === 'int32' ? bridge.Int32Array : bridge.Float64Array;
      // One builtin call copies the whole array. Element stores would be megamorphic
      // (every realm has its own typed-array maps) and cost far more than the episode itself.
      return (v) => {
        const src = v as ArrayLike<number>;
        if (src.length !== size) throw new RangeError(`observation has ${src.length} values, the space ${size}`);
        const out = new Ctor(size);
        // The host's %TypedArray%.prototype.set: a policy that replaced the realm's `set` is never called.
        typedArraySet.call(out, src);
        return out;
      };
    }
    case 'Discrete':
    case 'Text':
      return (v) => v;
    case 'Dict': {
      const keys = Object.keys(space.spaces);
      const copies = keys.map((k) => observationCopier(space.spaces[k] as SpaceDescription, realm));
      const make = recordMaker(realm, keys);
      if (keys.length === 3) {
        const [k0, k1, k2] = keys as [string, string, string];
        const [c0, c1, c2] = copies as [ToRealm, ToRealm, ToRealm];
        return (v) => {
          const src = v as Record<string, unknown>;
          return make(c0(src[k0]), c1(src[k1]), c2(src[k2]));
        };
      }
      return (v) => {
        const src = v as Record<string, unknown>;
        return make(...keys.map((k, i) => (copies[i] as ToRealm)(src[k])));
      };
    }
    case 'Tuple': {
      const items = space.spaces.map((s) => observationCopier(s, realm));
      return (v) => {
        const src = v as readonly unknown[];
        const out = bridge.newArray();
        items.forEach((copy, i) => defineProperty(out, i, { value: copy(src[i]), writable: true, enumerable: true, configurable: true }));
        return out;
      };
    }
    case 'MultiDiscrete':
    case 'MultiBinary':
      return (v) => jsonToRealm(v, bridge);
  }
}

/** `policy.act(observation, info)` with the observation (a host value) copied into the realm. */
export type Actor = (policy: unknown, observation: unknown, info: unknown) => unknown;

/** Above this many elements one builtin copy on the host beats the realm's element stores. */
const REALM_COPY_MAX = 64;

/**
 * The step's call into the policy. Small Box observations are copied inside the realm by the
 * same call that runs `act` (one cross-realm call per step instead of three: constructor, set,
 * act); everything else is copied here first.
 *
 * `borrowedAct`: the policy class's own `act` when it only reads its observation during the
 * call (see observationUse.ts). While the instance's `act` is still that method, every step's
 * observation is copied into one realm array instead of a new one: the allocation was most of
 * the sandbox's cost per CartPole step.
 */
export function policyActor(space: SpaceDescription, realm: PolicyRealm, copy: ToRealm, borrowedAct?: unknown): Actor {
  if (space.type === 'Box' && space.shape.reduce((a, b) => a * b, 1) <= REALM_COPY_MAX) {
    const size = space.shape.reduce((a, b) => a * b, 1);
    const bridge = realm.bridge;
    const Ctor = space.dtype === 'uint8' ? bridge.Uint8Array : space.dtype === 'int32' ? bridge.Int32Array : bridge.Float64Array;
    const act = realmActorFactory(size, realm.context)(Ctor, borrowedAct);
    return (policy, v, info) => {
      const src = v as ArrayLike<number>;
      if (src.length !== size) throw new RangeError(`observation has ${src.length} values, the space ${size}`);
      return act(policy, src, info);
    };
  }
  return (policy, v, info) => (policy as { act(o: unknown, i: unknown): unknown }).act(copy(v), info);
}

type RealmActorFactory = (Ctor: new (n: number) => ArrayLike<number>, borrowedAct: unknown) => (policy: unknown, src: ArrayLike<number>, info: unknown) => unknown;

/**
 * The realm side of `policyActor` for observations of `size` elements, compiled into the realm
 * as a function: the actor is made after the policy's first constructor ran, and evaluating a
 * script in the realm then would run the promise callbacks that constructor queued (the
 * realm's microtasks run after each evaluation), in that episode only. The copy is unrolled:
 * V8 ran a 4-element loop here at ~12 ns a step, the same stores written out at ~2 ns. It uses
 * only what it is given (the realm's typed array constructor, captured before any policy code
 * ran, and the host's array, which it only reads), and the policy's `act` looked up on the
 * instance, as a direct call would.
 */
function realmActorFactory(size: number, context: vm.Context): RealmActorFactory {
  const copy = (target: string): string => Array.from({ length: size }, (_, i) => `${target}[${i}] = src[${i}];`).join(' ');
  const body = `'use strict';
    const fresh = function (policy, src, info) { const o = new Ctor(${size}); ${copy('o')} return policy.act(o, info); };
    if (borrowedAct === undefined) return fresh;
    // Only ever reached in a hardened realm (a shared module): Reflect is frozen there and its
    // global binding read-only.
    const apply = Reflect.apply;
    const borrowed = new Ctor(${size});
    return function (policy, src, info) {
      // One read of act: a getter could answer the check with one function and the call with another.
      const act = policy.act;
      if (act !== borrowedAct) return fresh(policy, src, info);
      ${copy('borrowed')}
      // Not act.call(…): that lookup on the frozen Function.prototype cost ~12 ns a step.
      return apply(act, policy, [borrowed, info]);
    };`;
  return vm.compileFunction(body, ['Ctor', 'borrowedAct'], { parsingContext: context, filename: `policyforge-actor-${size}.js` }) as RealmActorFactory;
}

/**
 * The `act` method of the shared module's Policy class, read without running policy code (no
 * getters): the function observationUse.ts checked, or undefined.
 */
export function declaredAct(realm: PolicyRealm): unknown {
  if (!realm.shareModule || realm.sharedModule === undefined) return undefined;
  const exports = realm.sharedModule as Record<string, unknown>;
  // esbuild's export getter (checked by modulePlan.ts) returns the class binding.
  const P = exports['Policy'];
  if (typeof P !== 'function') return undefined;
  const proto = Object.getOwnPropertyDescriptor(P, 'prototype');
  if (!proto || !('value' in proto) || proto.value === null || typeof proto.value !== 'object') return undefined;
  const act = Object.getOwnPropertyDescriptor(proto.value, 'act');
  return act && 'value' in act && typeof act.value === 'function' ? act.value : undefined;
}

/** Any JSON-compatible host value (typed arrays become arrays) as a realm value. */
export function jsonToRealm(v: unknown, bridge: RealmBridge): unknown {
  if (v === null || typeof v !== 'object') return v;
  return bridge.parse(JSON.stringify(toJson(v)));
}

/** A host value as plain JSON data (typed arrays as number arrays), for trajectories and infos. */
export function toJson(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>);
  if (Array.isArray(v)) return v.map(toJson);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = toJson(x);
  return out;
}
