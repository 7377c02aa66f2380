// A backup checked before anything of it is loaded: the ZIP's every record as write-export.ts writes
// it (zip-structure.ts), manifest.json first, then exactly the members it names in its order with
// their sizes and SHA-256, then exactly the blobs blobs.jsonl lists, each one's bytes hashing to its
// name — naming the first member that differs. Memory holds the manifest and a line at a time.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { ExportBroken, walkExportZip, type ZipMember } from '../export/zip-structure';
import { BACKUP_FORMAT, BLOB_LIST, type BackupManifest, blobMember, MANIFEST } from './backup-format';

/** Why a backup cannot be restored, naming the member (or the ZIP's record) where it went wrong. */
export class BackupRefused extends Error {
  override readonly name = 'BackupRefused';
  constructor(
    readonly place: string,
    reason: string,
  ) {
    super(`${place}: ${reason}`);
  }
}

/** The manifest's size limit: it lists tables, not versions (those are in blobs.jsonl). */
const MANIFEST_MAX = 1024 * 1024;

/** A member's bytes as a stream, from the ZIP file. */
export const memberStream = (file: string, m: Pick<ZipMember, 'offset' | 'size'>): Readable =>
  m.size ? createReadStream(file, { start: m.offset, end: m.offset + m.size - 1 }) : Readable.from([]);

/** A (small) member's bytes, from the ZIP file. */
export async function readMember(file: string, m: Pick<ZipMember, 'offset' | 'size'>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of memberStream(file, m)) parts.push(b as Buffer);
  return Buffer.concat(parts);
}

/** blobs.jsonl's lines, parsed: [name, size, sha256, ms] each. */
export async function* blobLines(file: string, m: Pick<ZipMember, 'offset' | 'size'>): AsyncIterable<{ hash: string; size: number }> {
  const lines = createInterface({ input: memberStream(file, m), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new BackupRefused(`${BLOB_LIST} line ${n}`, 'not JSON');
    }
    const [name, size, hash] = parsed as [unknown, unknown, unknown];
    if (
      typeof hash !== 'string' ||
      !/^[0-9a-f]{64}$/.test(hash) ||
      name !== blobMember(hash) ||
      !Number.isSafeInteger(size) ||
      (size as number) < 0
    )
      throw new BackupRefused(`${BLOB_LIST} line ${n}`, 'not ["blobs/<sha256>", size, sha256, ms]');
    yield { hash, size: size as number };
  }
}

function parseManifest(bytes: Buffer): BackupManifest {
  let m: BackupManifest;
  try {
    m = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupRefused(MANIFEST, 'not JSON');
  }
  if (m?.format !== BACKUP_FORMAT)
    throw new BackupRefused(MANIFEST, `not a Silo backup of format ${BACKUP_FORMAT} (format: ${JSON.stringify(m?.format)})`);
  const okTable = (t: BackupManifest['tables'][number]) =>
    typeof t?.name === 'string' &&
    /^[a-z_][a-z0-9_]*$/.test(t.name) &&
    t.member === `tables/${t.name}.jsonl` &&
    Number.isSafeInteger(t.rows) &&
    Number.isSafeInteger(t.size) &&
    typeof t.sha256 === 'string';
  if (
    !Array.isArray(m.migrations) ||
    !m.migrations.every((x) => typeof x === 'string') ||
    !Array.isArray(m.tables) ||
    !m.tables.every(okTable)
  )
    throw new BackupRefused(MANIFEST, 'its migrations or tables are not as a backup writes them');
  if (m.blobs?.member !== BLOB_LIST || !Number.isSafeInteger(m.blobs.size) || typeof m.blobs.sha256 !== 'string')
    throw new BackupRefused(MANIFEST, 'its blobs are not as a backup writes them');
  return m;
}

export interface CheckedBackup {
  manifest: BackupManifest;
  /** where each table's rows and blobs.jsonl are in the file */
  members: Map<string, ZipMember>;
}

/** Checks `file` whole (every byte read once); its manifest and where its named members lie. Throws BackupRefused. */
export async function checkBackup(
  file: string,
  o: { progress?: (bytes: number) => void; blob?: (m: ZipMember) => Promise<void> } = {},
): Promise<CheckedBackup> {
  let manifest: BackupManifest | undefined;
  const members = new Map<string, ZipMember>();
  let named: { name: string; size: number; sha256: string }[] = [];
  let blobs: AsyncIterator<{ hash: string; size: number }> | undefined;
  let k = 0;
  let bytes = 0;
  try {
    for await (const m of walkExportZip(file)) {
      k++;
      bytes += m.size;
      o.progress?.(bytes);
      if (!manifest) {
        if (m.name !== MANIFEST) throw new BackupRefused(`ZIP member 1 (${m.name})`, `a backup starts with ${MANIFEST}`);
        if (m.size > MANIFEST_MAX) throw new BackupRefused(MANIFEST, `larger than ${MANIFEST_MAX} bytes`);
        manifest = parseManifest(await readMember(file, m));
        named = [
          ...manifest.tables.map((t) => ({ name: t.member, size: t.size, sha256: t.sha256 })),
          { name: BLOB_LIST, ...manifest.blobs },
        ];
        continue;
      }
      const want = named.shift() ?? (blobs ? await nextBlob(blobs) : undefined);
      if (!want) throw new BackupRefused(`ZIP member ${k} (${m.name})`, 'the manifest names no more members');
      if (m.name !== want.name) throw new BackupRefused(`ZIP member ${k} (${m.name})`, `expected ${want.name}`);
      if (m.size !== want.size) throw new BackupRefused(m.name, `${m.size} bytes where the manifest says ${want.size}`);
      if (m.sha256 !== want.sha256) throw new BackupRefused(m.name, `its SHA-256 is ${m.sha256}, the manifest says ${want.sha256}`);
      if (blobs) await o.blob?.(m);
      else members.set(m.name, m);
      if (m.name === BLOB_LIST) blobs = blobLines(file, m)[Symbol.asyncIterator]();
    }
  } catch (err) {
    if (err instanceof ExportBroken) throw new BackupRefused(err.place, err.message.slice(err.place.length + 2));
    throw err;
  }
  if (!manifest) throw new BackupRefused(MANIFEST, 'missing: the ZIP has no members');
  const missing = named.shift() ?? (blobs ? await nextBlob(blobs) : undefined);
  if (missing) throw new BackupRefused(missing.name, 'missing: the ZIP ends before it');
  return { manifest, members };
}

async function nextBlob(it: AsyncIterator<{ hash: string; size: number }>) {
  const r = await it.next();
  return r.done ? undefined : { name: blobMember(r.value.hash), size: r.value.size, sha256: r.value.hash };
}
