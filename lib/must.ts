/** The value, or an error naming what is missing: for invariants the types cannot carry. */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`${what} is missing`);
  return value;
}
