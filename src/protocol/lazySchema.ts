/**
 * A schema built on its first use rather than when its module loads. zod builds every schema
 * object eagerly, and a process that validates one reply (`policyforge status`) would otherwise
 * pay for the documents it never reads. The proxy forwards every operation to the one schema
 * `build` returns, so the schema accepts and produces exactly what it would have built eagerly.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let real: T | undefined;
  const target = (): T => (real ??= build());
  return new Proxy({} as T, {
    get: (_, key) => {
      const t = target();
      return Reflect.get(t, key, t);
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(target(), key);
      return d ? { ...d, configurable: true } : undefined;
    },
    defineProperty: (_, key, d) => Reflect.defineProperty(target(), key, d),
    deleteProperty: (_, key) => Reflect.deleteProperty(target(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
  });
}
