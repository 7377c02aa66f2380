// What an edit changed, as its *.updated record holds it: the fields whose values differ, before
// and after (JSON equality: meta compares by value and written order). Undefined: nothing changed,
// and the edit writes no record.
export function changesOf<T extends object, K extends keyof T & string>(
  before: T,
  after: T,
  fields: readonly K[],
): { before: Record<string, unknown>; after: Record<string, unknown> } | undefined {
  const changed = fields.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (!changed.length) return undefined;
  const pick = (row: T) => Object.fromEntries(changed.map((k) => [k, row[k]]));
  return { before: pick(before), after: pick(after) };
}
