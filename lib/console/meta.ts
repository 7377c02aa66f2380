// `meta` edited as "key = value" lines: easier to type than JSON, and it maps one to one.
export function metaToText(meta: Record<string, string> | undefined): string {
  return Object.entries(meta ?? {})
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n');
}

export function textToMeta(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const i = line.indexOf('=');
    if (i < 1) throw new Error(`Write meta as "key = value" lines ("${line.trim()}" has no key)`);
    out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

/** Meta typed as a JSON object of strings; anything else is the user's mistake to show. */
export function jsonToMeta(text: string): Record<string, string> {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('Meta is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('Meta must be a JSON object');
  for (const [k, v] of Object.entries(value)) if (typeof v !== 'string') throw new Error(`Meta values must be strings ("${k}" is not)`);
  return value as Record<string, string>;
}

/** One key/value row of the meta editor. */
export interface MetaRow {
  key: string;
  value: string;
}

export const metaToRows = (meta: Record<string, string>): MetaRow[] => Object.entries(meta).map(([key, value]) => ({ key, value }));

/** The rows as meta, blank rows ignored; a value without a key, or a key twice, is the user's mistake to show. */
export function rowsToMeta(rows: MetaRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, value } of rows) {
    const k = key.trim();
    if (!k && !value) continue;
    if (!k) throw new Error(`Meta: the value "${value}" has no key`);
    if (Object.hasOwn(out, k)) throw new Error(`Meta: the key "${k}" appears twice`);
    // Defined, not assigned: a key named __proto__ is a key like any other.
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
