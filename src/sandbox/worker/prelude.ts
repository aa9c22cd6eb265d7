/**
 * The first script run in every policy realm, before any policy code. It captures the
 * intrinsics it needs (so later tampering with built-in prototypes cannot change it), seeds
 * `Math.random`, installs a bounded `console`, and defines the frozen, non-writable global
 * `__pf` through which the host constructs the policy with a vm timeout and reads the log.
 *
 * Everything here is created inside the realm: the host hands in only primitives.
 * The PRNG is the same xoshiro128** + splitmix32 as src/envs/core/rng.ts, so a policy seed
 * gives the same stream in and out of the sandbox.
 */
export const PRELUDE_SOURCE = String.raw`(function (seed, maxLogChars) {
  'use strict';
  const G = globalThis;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const StringCtor = String;
  const imul = Math.imul;
  const TypeErrorCtor = TypeError;

  // Seeding: seedToUint32 then splitmix32, exactly as the host Rng.
  let lo = seed >>> 0;
  let hi = Math.floor(seed / 4294967296) >>> 0;
  let sm = (imul(hi, 0x9e3779b1) ^ lo) >>> 0;
  const next = () => {
    sm = (sm + 0x9e3779b9) >>> 0;
    let z = sm;
    z = imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let s0 = next(), s1 = next(), s2 = next(), s3 = next();
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  const rotl = (x, k) => (x << k) | (x >>> (32 - k));
  const nextUint32 = () => {
    const result = imul(rotl(imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11);
    return result;
  };
  const random = function random() {
    const h = nextUint32() >>> 5;
    const l = nextUint32() >>> 6;
    return (h * 67108864 + l) / 9007199254740992;
  };
  defineProperty(Math, 'random', { value: random, writable: true, configurable: true, enumerable: false });

  // Console: bounded text, formatted here so the host only ever reads one string.
  let log = '';
  let truncated = false;
  const format = (v) => {
    if (typeof v === 'string') return v;
    if (typeof v === 'object' && v !== null) {
      try {
        const s = stringify(v);
        if (typeof s === 'string') return s;
      } catch (e) { /* cyclic or hostile: fall through */ }
    }
    try { return StringCtor(v); } catch (e) { return '[unprintable]'; }
  };
  const write = (prefix, args) => {
    if (truncated) return;
    let line = prefix;
    for (let i = 0; i < args.length; i++) {
      line += (i === 0 ? '' : ' ') + format(args[i]);
      if (line.length > maxLogChars) break;
    }
    line += '\n';
    const room = maxLogChars - log.length;
    if (line.length > room) {
      log += line.slice(0, room > 0 ? room : 0);
      truncated = true;
    } else {
      log += line;
    }
  };
  const makeConsole = () => {
    const c = {
      log: function log() { write('', arguments); },
      info: function info() { write('', arguments); },
      debug: function debug() { write('', arguments); },
      warn: function warn() { write('[warn] ', arguments); },
      error: function error() { write('[error] ', arguments); },
    };
    return c;
  };
  defineProperty(G, 'console', { value: makeConsole(), writable: true, configurable: true, enumerable: false });

  const isFrozen = Object.isFrozen;
  const keys = Object.keys;
  const deepFreeze = (v) => {
    if (typeof v === 'object' && v !== null && !isFrozen(v)) {
      freeze(v);
      const k = keys(v);
      for (let i = 0; i < k.length; i++) deepFreeze(v[k[i]]);
    }
    return v;
  };

  let instance;
  let pendingCtx = 'null';
  let pendingModule = '';
  const bridge = freeze({
    /** Realm-owned values from host primitives. */
    parse: (json) => parse(json),
    newObject: () => ({}),
    /** A plain realm object from (key, value) argument pairs: one call per observation, not one per field. */
    record: function record() {
      const o = {};
      for (let i = 0; i + 1 < arguments.length; i += 2) {
        defineProperty(o, arguments[i], { value: arguments[i + 1], writable: true, enumerable: true, configurable: true });
      }
      return o;
    },
    newArray: () => [],
    Float64Array: Float64Array,
    Float32Array: Float32Array,
    Uint8Array: Uint8Array,
    Int32Array: Int32Array,
    /** Run through a vm timeout by the host: new Policy(ctx). */
    prepare: (ctxJson, moduleName) => { pendingCtx = ctxJson; pendingModule = moduleName; },
    construct: () => {
      const mod = G[pendingModule];
      const P = mod !== null && typeof mod === 'object' ? mod.Policy : undefined;
      if (typeof P !== 'function') throw new TypeErrorCtor('policy/policy.ts must export class Policy (export class Policy { act(observation, info) { ... } })');
      const ctx = parse(pendingCtx);
      // JSON has no infinities: the host sends them as "inf" / "-inf".
      const rr = ctx.rewardRange;
      for (let i = 0; i < 2; i++) if (rr[i] === 'inf') rr[i] = Infinity; else if (rr[i] === '-inf') rr[i] = -Infinity;
      instance = new P(deepFreeze(ctx));
    },
    instance: () => instance,
    logText: () => log,
    logTruncated: () => truncated,
  });
  defineProperty(G, '__pf', { value: bridge, writable: false, configurable: false, enumerable: false });
  return bridge;
})`;

/** Run with the vm timeout after the bundle script: constructs the policy inside the realm. */
export const CONSTRUCT_SOURCE = `__pf.construct()`;
