// `{ ...base, ...extra }` for the objects a call builds on its way through the gateway. On Node 20 an
// object spread followed by more properties ({ ...base, key }) costs about 0.6 µs, ten times
// Object.assign and forty times a literal, and an object made so stays slow to extend (V8 adds each
// later property through its runtime): a proxied call built a dozen such objects.

/**
 * A new object with `base`'s own properties, then `extra`'s. For the gateway's own objects only: on a
 * client's parsed JSON, Object.assign would take a `__proto__` key for the prototype.
 */
export function extend<A extends object, B extends object>(base: A, extra: B): Omit<A, keyof B> & B {
  return Object.assign({}, base, extra) as Omit<A, keyof B> & B;
}
