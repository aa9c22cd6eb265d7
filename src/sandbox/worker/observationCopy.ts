/**
 * Copies host values (observations, infos) into realm-owned values, so the policy never
 * holds a host object (whose `constructor` chain would lead back to the host's `Function`
 * and `process`). Copies use only host intrinsics and realm constructors captured before any
 * policy code ran, never methods looked up on realm objects.
 */
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

const apply = Reflect.apply;

/** Calls the `act` already read from the instance (reading it again would run a getter twice). */
function callAct(policy: unknown, act: unknown, observation: unknown, info: unknown): unknown {
  if (typeof act !== 'function') throw new TypeError('the policy instance has no act method');
  return apply(act, policy, [observation, info]);
}

/**
 * The step's call into the policy, with each observation copied into the realm.
 *
 * `borrowedAct`: the policy class's own `act` when it only reads its observation during the
 * call (see observationUse.ts). While the instance's `act` is still that method, every step's
 * Box observation is copied into one realm array instead of a new one: the allocation was most
 * of the sandbox's cost per CartPole step.
 */
export function policyActor(space: SpaceDescription, realm: PolicyRealm, copy: ToRealm, borrowedAct?: unknown): Actor {
  if (borrowedAct === undefined || space.type !== 'Box') {
    return (policy, v, info) => callAct(policy, (policy as { act: unknown }).act, copy(v), info);
  }
  const size = space.shape.reduce((a, b) => a * b, 1);
  const bridge = realm.bridge;
  const Ctor = space.dtype === 'uint8' ? bridge.Uint8Array : space.dtype === 'int32' ? bridge.Int32Array : bridge.Float64Array;
  const borrowed = new Ctor(size);
  return (policy, v, info) => {
    // One read of act: a getter could answer the check with one function and the call with another.
    const act = (policy as { act: unknown }).act;
    if (act !== borrowedAct) return callAct(policy, act, copy(v), info);
    const src = v as ArrayLike<number>;
    if (src.length !== size) throw new RangeError(`observation has ${src.length} values, the space ${size}`);
    typedArraySet.call(borrowed, src);
    return callAct(policy, act, borrowed, info);
  };
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
