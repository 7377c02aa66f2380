// verify-export's lists in constant memory (docs/api.md, Export): the ZIP's members, manifest.json's
// files and files.csv's rows are the same list in the same order (plan-export.ts writes all three
// from one), so each is folded as it is read into a digest of its (name, size, sha256) in order, and
// the digests compared: nothing is kept per member. A list whose digest differs is checked again
// the slow way (verify-export.ts), which names the first member that does not match.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { CsvReader, looksLikeFormula } from './csv';
import { ExportBroken, type ZipMember } from './zip-structure';

/** A list of (name, size, sha256), folded in order. */
export class ListDigest {
  private hash: Hash = createHash('sha256');
  count = 0;
  add(name: string, size: number | string, sha256: string) {
    this.hash.update(`${JSON.stringify([name, String(size), sha256])}\n`);
    this.count++;
  }
  /** the digest (the list is then closed) */
  digest(): string {
    return `${this.count}:${this.hash.digest('hex')}`;
  }
}

const isListed = (v: unknown): v is { sha256: string; size: number } =>
  !!v &&
  typeof v === 'object' &&
  Object.keys(v).length === 2 &&
  typeof (v as { sha256: unknown }).sha256 === 'string' &&
  typeof (v as { size: unknown }).size === 'number';

/**
 * manifest.json parsed with each `files` entry folded into `files` (in the order written) and left
 * out of the object: an export's manifest lists every member, and holding them as objects cost
 * hundreds of bytes each. An entry of another shape stays in the object (the slow check names it).
 */
export function parseManifest<T extends { files?: object }>(text: string): { manifest: T; files: string; left: number } {
  const lists = new Map<object, ListDigest>();
  const manifest = JSON.parse(text, function (this: object, key: string, value: unknown) {
    if (!isListed(value) || Array.isArray(this)) return value;
    const list = lists.get(this) ?? new ListDigest();
    lists.set(this, list);
    list.add(key, value.size, value.sha256);
    return undefined;
  }) as T;
  const files = manifest?.files && typeof manifest.files === 'object' ? manifest.files : undefined;
  return {
    manifest,
    files: (files && lists.get(files)?.digest()) ?? new ListDigest().digest(),
    left: files ? Object.keys(files).length : 0,
  };
}

/** A member's text, CSV records at a time (a member's bytes read as a stream). */
export async function* csvRows(file: string, m: ZipMember): AsyncIterable<string[]> {
  const reader = new CsvReader();
  if (m.size) {
    for await (const piece of createReadStream(file, { start: m.offset, end: m.offset + m.size - 1, encoding: 'utf8' })) {
      try {
        yield* reader.push(piece as string);
      } catch (err) {
        throw new ExportBroken(m.name, `is not RFC 4180 CSV: ${(err as Error).message}`);
      }
    }
  }
  try {
    reader.end();
  } catch (err) {
    throw new ExportBroken(m.name, `is not RFC 4180 CSV: ${(err as Error).message}`);
  }
}

/**
 * A table's rows as records of its columns: the header row checked, each row's field count, and
 * the fields a spreadsheet may take for a formula counted into `formulas[name]`.
 */
export async function* tableRows(
  file: string,
  m: ZipMember,
  columns: readonly string[],
  formulas: Record<string, number>,
): AsyncIterable<Record<string, string>> {
  let n = 0;
  formulas[m.name] = 0;
  for await (const r of csvRows(file, m)) {
    if (n++ === 0) {
      if (r.join(',') !== columns.join(',')) throw new ExportBroken(m.name, 'the header row is not the columns index.xml names');
      continue;
    }
    if (r.length !== columns.length) throw new ExportBroken(`${m.name}, record ${n}`, `has ${r.length} fields, not ${columns.length}`);
    formulas[m.name] += r.filter(looksLikeFormula).length;
    yield Object.fromEntries(columns.map((c, j) => [c, r[j]]));
  }
  if (!n) throw new ExportBroken(m.name, 'the header row is not the columns index.xml names');
}
