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

/** Above this many elements one builtin copy on the host beats the realm's element loop. */
const REALM_COPY_MAX = 64;

/**
 * The step's call into the policy. Small Box observations are copied inside the realm by the
 * same call that runs `act` (see prelude.ts); everything else is copied here first.
 */
export function policyActor(space: SpaceDescription, realm: PolicyRealm, copy: ToRealm): Actor {
  const bridge = realm.bridge;
  if (space.type === 'Box' && space.shape.reduce((a, b) => a * b, 1) <= REALM_COPY_MAX) {
    const size = space.shape.reduce((a, b) => a * b, 1);
    const act = (space.dtype === 'uint8' ? bridge.actUint8 : space.dtype === 'int32' ? bridge.actInt32 : bridge.actFloat64) as (policy: unknown, src: ArrayLike<number>, info: unknown) => unknown;
    return (policy, v, info) => {
      const src = v as Float64Array;
      if (src.length !== size) throw new RangeError(`observation has ${src.length} values, the space ${size}`);
      return act(policy, src, info);
    };
  }
  return (policy, v, info) => (policy as { act(o: unknown, i: unknown): unknown }).act(copy(v), info);
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
