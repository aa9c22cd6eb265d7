/**
 * Copies host values (observations, infos) into realm-owned values, so the policy never
 * holds a host object (whose `constructor` chain would lead back to the host's `Function`
 * and `process`). Copies use only host intrinsics and realm constructors captured before any
 * policy code ran, never methods looked up on realm objects.
 */
import type { SpaceDescription } from '../../protocol/spaces';
import type { RealmBridge } from './policyRealm';

export type ToRealm = (value: unknown) => unknown;

const defineProperty = Object.defineProperty;

export function observationCopier(space: SpaceDescription, bridge: RealmBridge): ToRealm {
  switch (space.type) {
    case 'Box': {
      const size = space.shape.reduce((a, b) => a * b, 1);
      const Ctor = space.dtype === 'uint8' ? bridge.Uint8Array : space.dtype === 'int32' ? bridge.Int32Array : bridge.Float64Array;
      // One constructor call copies the whole array. Element stores would be megamorphic
      // (every realm has its own typed-array maps) and cost far more than the episode itself.
      return (v) => {
        const src = v as ArrayLike<number>;
        if (src.length !== size) throw new RangeError(`observation has ${src.length} values, the space ${size}`);
        return new Ctor(src);
      };
    }
    case 'Discrete':
    case 'Text':
      return (v) => v;
    case 'Dict': {
      const fields = Object.entries(space.spaces).map(([k, s]) => [k, observationCopier(s, bridge)] as const);
      return (v) => {
        const src = v as Record<string, unknown>;
        const out = bridge.newObject();
        for (const [k, copy] of fields) defineProperty(out, k, { value: copy(src[k]), writable: true, enumerable: true, configurable: true });
        return out;
      };
    }
    case 'Tuple': {
      const items = space.spaces.map((s) => observationCopier(s, bridge));
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
