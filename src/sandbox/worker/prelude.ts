/**
 * The first script run in every policy realm, before any policy code. It captures the
 * intrinsics it needs (so later tampering with built-in prototypes cannot change it), installs
 * a seeded `Math.random` and a bounded `console`, and returns the bridge through which the host
 * starts episodes, constructs the policy and reads the log. The bridge is handed to the host
 * only: it is on no global and reachable from no realm object, so policy code cannot reseed
 * `Math.random`, reset its log or start an episode.
 *
 * A realm serves many episodes of one bundle (see policyRealm.ts). `harden()` deep-freezes
 * every intrinsic once, so nothing an episode does to built-ins outlives it; `beginEpisode`
 * then puts back what per-episode state remains: globals the last episode added, RegExp's
 * legacy statics, the PRNG state and the log.
 *
 * Everything here is created inside the realm: the host hands in only primitives, and one
 * function of its own (`sink`, below) that no realm object ever holds.
 * The PRNG is the same xoshiro128** + splitmix32 as src/envs/core/rng.ts, so a policy seed
 * gives the same stream in and out of the sandbox.
 *
 * Time is virtual: `Date`, `performance.now()` and `Intl.DateTimeFormat`'s default date read a
 * clock that starts at the same instant every episode and advances CLOCK_TICK_MS per read, so a
 * policy that times itself (an anytime search, say) makes the same decisions whatever the
 * machine's load. Wall-clock deadlines are the host's, on real time.
 *
 * `sink(text, truncated)` is the host's; it gets every log line as it is written while the
 * episode is traced (so what a policy printed survives a kill; see pool/traceReader.ts). It is
 * kept in this closure only, and anything it throws (a stack overflow, which V8 raises in the
 * host realm) is swallowed here, so no host value reaches policy code.
 */
export const CLOCK_ORIGIN_MS = Date.UTC(2026, 0, 1);
export const CLOCK_TICK_MS = 0.01;

export const PRELUDE_SOURCE = String.raw`(function (sink) {
  'use strict';
  const G = globalThis;
  const defineProperty = Object.defineProperty;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const getPrototypeOf = Object.getPrototypeOf;
  const ownKeys = Reflect.ownKeys;
  const getOwnPropertySymbols = Object.getOwnPropertySymbols;
  const deleteProperty = Reflect.deleteProperty;
  const freeze = Object.freeze;
  const isFrozen = Object.isFrozen;
  const preventExtensions = Object.preventExtensions;
  const keys = Object.keys;
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const StringCtor = String;
  const imul = Math.imul;
  const floor = Math.floor;
  const TypeErrorCtor = TypeError;
  const regExpExec = RegExp.prototype.exec;
  const resetMatch = /(?:)/;
  const SetCtor = Set;
  const setHas = Set.prototype.has;
  const setAdd = Set.prototype.add;
  const construct = Reflect.construct;
  const apply = Reflect.apply;

  // Seeding: seedToUint32 then splitmix32, exactly as the host Rng.
  let sm = 0;
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  const next = () => {
    sm = (sm + 0x9e3779b9) >>> 0;
    let z = sm;
    z = imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  const reseed = (seed) => {
    const lo = seed >>> 0;
    const hi = floor(seed / 4294967296) >>> 0;
    sm = (imul(hi, 0x9e3779b1) ^ lo) >>> 0;
    s0 = next(); s1 = next(); s2 = next(); s3 = next();
    if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  };
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

  // Virtual clock (see the header): ms since the episode began, CLOCK_TICK_MS more per read.
  const ORIGIN = ${CLOCK_ORIGIN_MS};
  const TICK = ${CLOCK_TICK_MS};
  let clock = 0;
  const now = () => (clock += TICK);
  const dateNow = () => floor(ORIGIN + now());
  const DateCtor = Date;
  const dateProto = DateCtor.prototype;
  const dateToString = dateProto.toString;
  const VirtualDate = function Date(year, monthIndex, day, hours, minutes, seconds, ms) {
    if (new.target === undefined) return apply(dateToString, construct(DateCtor, [dateNow()]), []);
    return construct(DateCtor, arguments.length === 0 ? [dateNow()] : arguments, new.target);
  };
  defineProperty(VirtualDate, 'prototype', { value: dateProto, writable: false, enumerable: false, configurable: false });
  defineProperty(VirtualDate, 'now', { value: function now() { return dateNow(); }, writable: true, enumerable: false, configurable: true });
  defineProperty(VirtualDate, 'parse', { value: DateCtor.parse, writable: true, enumerable: false, configurable: true });
  defineProperty(VirtualDate, 'UTC', { value: DateCtor.UTC, writable: true, enumerable: false, configurable: true });
  defineProperty(dateProto, 'constructor', { value: VirtualDate, writable: true, enumerable: false, configurable: true });
  defineProperty(G, 'Date', { value: VirtualDate, writable: true, enumerable: false, configurable: true });
  defineProperty(G, 'performance', {
    value: { now: function now() { return clock += TICK; }, timeOrigin: ORIGIN },
    writable: true, enumerable: false, configurable: true,
  });
  if (typeof Intl === 'object' && typeof Intl.DateTimeFormat === 'function') {
    // A format without a date formats "now": the virtual one.
    const dtf = Intl.DateTimeFormat.prototype;
    const formatGetter = getOwnPropertyDescriptor(dtf, 'format').get;
    const formatToParts = dtf.formatToParts;
    defineProperty(dtf, 'format', {
      get: function format() {
        const f = apply(formatGetter, this, []);
        return (date) => f(date === undefined ? dateNow() : date);
      },
      enumerable: false, configurable: true,
    });
    defineProperty(dtf, 'formatToParts', {
      value: function formatToParts(date) { return apply(formatToParts, this, [date === undefined ? dateNow() : date]); },
      writable: true, enumerable: false, configurable: true,
    });
  }

  // Console: bounded text, formatted here so the host only ever reads one string.
  let log = '';
  let truncated = false;
  let maxLogChars = 0;
  let streaming = false;
  const emit = (text) => {
    try { sink(text, truncated); } catch (e) { /* the host's error: never the policy's */ }
  };
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
      line = line.slice(0, room > 0 ? room : 0);
      truncated = true;
    }
    log += line;
    if (streaming) emit(line);
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

  const deepFreeze = (v) => {
    if (typeof v === 'object' && v !== null && !isFrozen(v)) {
      freeze(v);
      const k = keys(v);
      for (let i = 0; i < k.length; i++) deepFreeze(v[k[i]]);
    }
    return v;
  };

  // Frozen, as Object.isFrozen sees it, but not by Object.freeze: V8 gives an object that
  // Object.freeze touched read-only elements, and every element store into an object with such
  // a prototype (any array or typed array, once Array.prototype, %TypedArray%.prototype or
  // Object.prototype is frozen that way) then takes the slow generic path: ~30 ns a store
  // instead of ~1. Locking each property and then preventing extensions keeps stores fast.
  const lock = (o) => {
    const k = ownKeys(o);
    for (let i = 0; i < k.length; i++) {
      const d = getOwnPropertyDescriptor(o, k[i]);
      if (d === undefined || (!d.configurable && (!('value' in d) || !d.writable))) continue;
      if ('value' in d) d.writable = false;
      d.configurable = false;
      defineProperty(o, k[i], d);
    }
    preventExtensions(o);
  };

  // Hardening: every object reachable from the global's properties and from the intrinsics no
  // global names (iterator and generator prototypes, ...), through property values, accessors
  // and prototypes, is frozen. The global itself stays extensible: what an episode adds to it
  // is deleted before the next one.
  const freezeGraph = (roots, skipFrozen) => {
    const seen = new SetCtor();
    const stack = roots;
    while (stack.length > 0) {
      const o = stack.pop();
      if ((typeof o !== 'object' && typeof o !== 'function') || o === null || o === G) continue;
      if (setHas.call(seen, o) || (skipFrozen && isFrozen(o))) continue;
      setAdd.call(seen, o);
      lock(o);
      const p = getPrototypeOf(o);
      if (p !== null) stack.push(p);
      const k = ownKeys(o);
      for (let i = 0; i < k.length; i++) {
        const d = getOwnPropertyDescriptor(o, k[i]);
        if (d === undefined) continue;
        if ('value' in d) stack.push(d.value); else { stack.push(d.get); stack.push(d.set); }
      }
    }
  };
  let baseline = null;
  let baseSymbols = 0;
  const harden = () => {
    const roots = [];
    const names = ownKeys(G);
    for (let i = 0; i < names.length; i++) {
      const d = getOwnPropertyDescriptor(G, names[i]);
      if (d === undefined) continue;
      // The full descriptor: the vm global's definer loses a value left out of it.
      defineProperty(G, names[i], 'value' in d
        ? { value: d.value, writable: false, enumerable: d.enumerable, configurable: false }
        : { get: d.get, set: d.set, enumerable: d.enumerable, configurable: false });
      if ('value' in d) roots.push(d.value); else { roots.push(d.get); roots.push(d.set); }
    }
    const hidden = [
      function* () {}, async function () {}, async function* () {}, () => {},
      [][Symbol.iterator](), new Map()[Symbol.iterator](), new Set()[Symbol.iterator](),
      ''[Symbol.iterator](), /(?:)/g[Symbol.matchAll](''), (async function* () {})(),
      (function* () {})(), Promise.resolve(), new WeakRef({}),
    ];
    if (typeof Intl === 'object' && typeof Intl.Segmenter === 'function') {
      const segments = new Intl.Segmenter().segment('');
      hidden.push(segments, segments[Symbol.iterator]());
    }
    for (let i = 0; i < hidden.length; i++) roots.push(getPrototypeOf(hidden[i]));
    freezeGraph(roots, false);
    baseline = new SetCtor(ownKeys(G));
    baseSymbols = getOwnPropertySymbols(G).length;
  };

  /** Deletes what the last episode added to the global; false if something would not go. */
  const cleanGlobals = () => {
    const now = ownKeys(G);
    let clean = true;
    for (let i = 0; i < now.length; i++) {
      if (!setHas.call(baseline, now[i]) && !deleteProperty(G, now[i])) clean = false;
    }
    return clean;
  };
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
    harden: harden,
    /**
     * Fresh per-episode state; false when the realm could not be made clean (the host drops it).
     * Listing the global's keys costs microseconds (the vm global's interceptors), so the host
     * says whether its string keys changed (they all land on the context object, a host object
     * cheaper to count) and only the symbols are counted here; and not even that for code that
     * cannot reach the global object (checkGlobals false, see modulePlan.ts).
     */
    beginEpisode: (seed, maxChars, checkGlobals, namesChanged, stream) => {
      const clean = baseline === null || !checkGlobals || (!namesChanged && getOwnPropertySymbols(G).length === baseSymbols) || cleanGlobals();
      // A successful match resets RegExp.$1 to $9, lastMatch, input and friends.
      regExpExec.call(resetMatch, '');
      reseed(seed);
      log = '';
      truncated = false;
      maxLogChars = maxChars;
      streaming = stream;
      clock = 0;
      return clean;
    },
    /**
     * The policy context of one environment setup without its seed, frozen: made once per
     * realm, its parts are shared by the contexts of every episode (nothing can change them).
     */
    contextTemplate: (json) => {
      const ctx = parse(json);
      // JSON has no infinities: the host sends them as "inf" / "-inf".
      const rr = ctx.rewardRange;
      for (let i = 0; i < 2; i++) if (rr[i] === 'inf') rr[i] = Infinity; else if (rr[i] === '-inf') rr[i] = -Infinity;
      return deepFreeze(ctx);
    },
    /**
     * new Policy(ctx) for the module object the bundle returned, ctx a fresh frozen copy of the
     * template plus what differs by episode: the seed and the episode's step limit.
     */
    construct: (mod, template, seed, maxEpisodeSteps) => {
      const P = mod !== null && typeof mod === 'object' ? mod.Policy : undefined;
      if (typeof P !== 'function') throw new TypeErrorCtor('policy/policy.ts must export class Policy (export class Policy { act(observation, info) { ... } })');
      const ctx = {};
      const k = keys(template);
      for (let i = 0; i < k.length; i++) ctx[k[i]] = template[k[i]];
      ctx.maxEpisodeSteps = maxEpisodeSteps;
      ctx.seed = seed;
      return new P(freeze(ctx));
    },
    /**
     * Freezes a module's top-level values, and what they reach, the first time a module that
     * serves many episodes runs (see modulePlan.ts). Frozen intrinsics end the walk.
     */
    seal: (values) => {
      const roots = [];
      for (let i = 0; i < values.length; i++) roots.push(values[i]);
      freezeGraph(roots, true);
    },
    /** What a module that runs once per episode gets instead: nothing to keep from changing. */
    noSeal: () => {},
    logText: () => log,
    logTruncated: () => truncated,
  });
  return bridge;
})`;
