/**
 * `value`, known present by an invariant the type system cannot see (an index proved in range, a key put in a
 * map a few lines above). Throws an Error naming that invariant when it does not hold, so a broken assumption
 * fails loudly where it breaks instead of as an `undefined` read three calls later. `null` is a value: only a
 * missing (`undefined`) one breaks the invariant.
 */
export function must<T>(value: T | undefined, invariant: string): T {
  if (value === undefined) throw new Error(`Invariant broken: ${invariant}`);
  return value;
}
