// RFC 8785 (JSON Canonicalization Scheme): the text whose SHA-256 is an event's hash. Object keys
// sorted by their UTF-16 code units, no whitespace, strings escaped as ECMAScript's JSON.stringify
// escapes them, numbers as ECMAScript writes them. The database writes the same text for the
// records it chains: the database splices the actor and data written here into a record's text
// (silo_append_events, migration event_log); event-log.test.ts holds its strings and file data to it.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Compares two strings by UTF-16 code units (what JavaScript's < does). */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function canonicalJson(value: Json): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('RFC 8785 has no form for NaN or Infinity');
    return JSON.stringify(value); // ECMAScript's Number serialisation, -0 as 0
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort(byCodeUnits);
  return `{${keys
    .filter((k) => value[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
    .join(',')}}`;
}
