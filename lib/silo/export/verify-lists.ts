// verify-export's lists in constant memory (docs/api.md, Export): the ZIP's members, manifest.json's
// files and files.csv's rows are the same list in the same order (plan-export.ts writes all three
// from one), so each is folded as it is read into a digest of its (name, size, sha256) in order, and
// the digests compared: nothing is kept per member. A list whose digest differs is checked again
// the slow way (checkListed, checkTablesWhole: every member held), naming the first that does not
// match.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { CsvReader, looksLikeFormula, parseCsv } from './csv';
import { ENTRIES_TABLE, FILES_TABLE } from './tables';
import { ExportBroken, readExportZip, type ZipMember } from './zip-structure';

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

export async function readRange(file: string, m: ZipMember): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const b = Buffer.alloc(m.size);
    await fh.read(b, 0, m.size, m.offset);
    return b;
  } finally {
    await fh.close();
  }
}

/**
 * The members against manifest.json one by one, when their lists' digests differ: names the first
 * that does not match. Holds every member (a broken or reordered export only).
 */
export async function checkListed(file: string, manifest: { files?: Record<string, { sha256: string; size: number }> }) {
  const members = await readExportZip(file);
  const byName = new Set(members.map((m) => m.name));
  for (const m of members) {
    if (m.name === 'manifest.json' || m.name === 'manifest.sig') continue;
    const listed = manifest.files?.[m.name];
    if (!listed) throw new ExportBroken(m.name, 'is not in manifest.json');
    if (listed.size !== m.size) throw new ExportBroken(m.name, `is ${m.size} bytes, manifest.json says ${listed.size}`);
    if (listed.sha256 !== m.sha256) throw new ExportBroken(m.name, `has sha256 ${m.sha256}, manifest.json says ${listed.sha256}`);
  }
  for (const name of Object.keys(manifest.files ?? {}))
    if (!byName.has(name)) throw new ExportBroken(name, 'is in manifest.json but not in the archive');
}

/** entries.csv and files.csv read whole, each row checked against the members and entries.csv's ids. */
export async function checkTablesWhole(file: string): Promise<void> {
  const byName = new Map((await readExportZip(file)).map((m) => [m.name, m]));
  const text = async (name: string) => {
    const m = byName.get(name);
    if (!m) throw new ExportBroken(name, 'missing from the archive');
    return (await readRange(file, m)).toString('utf8');
  };
  const table = async (name: string, columns: string[]) => {
    let rows: string[][];
    try {
      rows = parseCsv(await text(name));
    } catch (err) {
      throw new ExportBroken(name, `is not RFC 4180 CSV: ${(err as Error).message}`);
    }
    if (rows[0]?.join(',') !== columns.join(',')) throw new ExportBroken(name, 'the header row is not the columns index.xml names');
    return rows.slice(1).map((r, i) => {
      if (r.length !== columns.length) throw new ExportBroken(`${name}, record ${i + 2}`, `has ${r.length} fields, not ${columns.length}`);
      return Object.fromEntries(columns.map((c, j) => [c, r[j]]));
    });
  };
  const entries = await table(
    ENTRIES_TABLE.url,
    ENTRIES_TABLE.columns.map((c) => c.name),
  );
  const entryIds = new Set(entries.map((e) => e.entry_id));
  const files = await table(
    FILES_TABLE.url,
    FILES_TABLE.columns.map((c) => c.name),
  );
  const listed = new Set<string>();
  files.forEach((f, i) => {
    const place = `files.csv, record ${i + 2} (${f.path})`;
    const m = byName.get(f.path);
    if (!f.path.startsWith('files/') || !m) throw new ExportBroken(place, 'its bytes are not in the archive');
    if (m.sha256 !== f.sha256) throw new ExportBroken(place, `its bytes have sha256 ${m.sha256}, the row says ${f.sha256}`);
    if (String(m.size) !== f.size) throw new ExportBroken(place, `its bytes are ${m.size} long, the row says ${f.size}`);
    if (!entryIds.has(f.entry_id)) throw new ExportBroken(place, `its entry ${f.entry_id} is not in entries.csv`);
    listed.add(f.path);
  });
  for (const name of byName.keys())
    if (name.startsWith('files/') && !listed.has(name)) throw new ExportBroken(name, 'is not a version files.csv lists');
}
