// What an auditor's export of one chain (workspace + environment) and period holds, decided before
// a byte is sent: every member's name, size and SHA-256 (the manifest, signed), so the ZIP's size is
// known up front. The chain's entries are read once, a page at a time, with their versions stored
// in the period: the tables' rows and the list of versions go to the plan's own files (spill.ts),
// so memory holds a page whatever the period's size; the ZIP reads those files back. The event
// log's records and checkpoints are read twice (hashed now, streamed later: both are append-only,
// so the second read is the first's bytes); file versions stream from the blob store.
// docs/api.md, Export; docs/design/export.md.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { SMALL_BLOB_CEILING } from '../../config';
import type { Tx } from '../../db/client';
import type { Chain } from '../../events/chain';
import { chainName } from '../../events/chain';
import { type AuditKey, signBytes } from '../../events/signing-key';
import type { ExportQuery } from '../../schemas/export';
import type { BlobStore } from '../../storage/blob-store';
import type { ChunkPool } from '../../storage/chunk-pool';
import { type DatabaseStore, keptBatches } from '../../storage/database-store';
import type { LocalDiskStore } from '../../storage/local-disk';
import { BOM, csvRecord } from './csv';
import { planDir } from './export-dirs';
import { checkpointLines, eventLines, eventRun } from './export-events';
import { DTD_NAME, GDPDU_DTD, indexXml } from './gdpdu';
import { periodPages } from './period-pages';
import { type Spilled, SpillFile, spilledLines } from './spill';
import { ENTRIES_TABLE, FILES_TABLE, type Table } from './tables';

export const EXPORT_FORMAT = 'silo-export/1';

export interface ExportMember {
  name: string;
  size: number;
  sha256: string;
  mtime: Date;
  /** the bytes of a small member */
  bytes?: Buffer;
  /**
   * opens a large member's bytes (called when the ZIP reaches it, or opens it ahead); with `pool`,
   * a store that can reads them into its buffers (chunk-pool.ts)
   */
  open?: (pool?: ChunkPool) => Promise<Readable | AsyncIterable<Buffer>>;
}

export interface ExportPlan {
  chain: string;
  period: ExportQuery;
  createdAt: Date;
  /**
   * The ZIP's members in order: manifest.json, manifest.sig, then every member the manifest names.
   * The same members each time it is called (the versions come from the plan's file), so the ZIP
   * walks them once for its size, once for the data and once for its central directory.
   */
  members(): AsyncIterable<ExportMember>;
  /** manifest.json's SHA-256 */
  manifestSha256: string;
  versions: number;
  /** the versions' bytes in all */
  bytes: number;
  /** the seq range of events.jsonl: the records made in the period (export-events.ts) */
  events: { first: number; last: number };
  /** removes the plan's files (the ZIP does when it ends or is aborted); safe to call twice */
  dispose(): Promise<void>;
}

export interface PlanOptions {
  db: Tx;
  store: BlobStore;
  chain: Chain;
  period: ExportQuery;
  key: AuditKey;
  /** where the data comes from (the instance's address), for index.xml */
  location: string;
  now?: Date;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const small = (name: string, bytes: Buffer, mtime: Date): ExportMember => ({ name, bytes, size: bytes.length, sha256: sha(bytes), mtime });

const spilled = (name: string, file: Spilled, mtime: Date): ExportMember => ({
  name,
  size: file.size,
  sha256: file.sha256,
  mtime,
  open: async () => createReadStream(file.path),
});

/** A member made of text read in pages: read once to hash and count it, again when it is sent. */
async function paged(name: string, pages: () => AsyncIterable<Buffer>, mtime: Date): Promise<ExportMember> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const b of pages()) {
    hash.update(b);
    size += b.length;
  }
  return { name, size, sha256: hash.digest('hex'), mtime, open: async () => pages() };
}

/** The day's first instant (UTC), and the instant after `to`'s last. */
export const periodBounds = (p: ExportQuery) => ({
  start: new Date(`${p.from}T00:00:00.000Z`),
  end: new Date(Date.parse(`${p.to}T00:00:00.000Z`) + 86_400_000),
});

const csvRow = <R>(t: Table<R>, row: R) => csvRecord(t.columns.map((c) => c.value(row)));
const csvHeader = (t: Table<unknown>) => BOM + csvRecord(t.columns.map((c) => c.name));

export async function planExport(o: PlanOptions): Promise<ExportPlan> {
  const createdAt = o.now ?? new Date();
  const { start, end } = periodBounds(o.period);
  const { dir, dispose } = await planDir();
  const files: SpillFile[] = [];
  try {
    const spill = async (name: string) => {
      const f = await SpillFile.create(path.join(dir, name));
      files.push(f);
      return f;
    };
    const [entriesCsv, filesCsv, list] = [await spill('entries.csv'), await spill('files.csv'), await spill('versions.jsonl')];
    await entriesCsv.write(csvHeader(ENTRIES_TABLE as Table<unknown>));
    await filesCsv.write(csvHeader(FILES_TABLE as Table<unknown>));
    let versions = 0;
    let bytes = 0;
    for await (const page of periodPages(o.db, o.chain, start, end)) {
      await entriesCsv.write(page.entries.map((e) => csvRow(ENTRIES_TABLE, e)).join(''));
      await filesCsv.write(page.versions.map((v) => csvRow(FILES_TABLE, v)).join(''));
      await list.write(page.versions.map((v) => `${JSON.stringify([v.path, v.size, v.sha256, v.storedAt.getTime()])}\n`).join(''));
      versions += page.versions.length;
      for (const v of page.versions) bytes += v.size;
    }
    const [entriesFile, filesFile, listFile] = [await entriesCsv.close(), await filesCsv.close(), await list.close()];
    files.length = 0;

    const events = await eventRun(o.db, o.chain, start, end, o.key, createdAt);
    const owner = await o.db.owner.findUniqueOrThrow({ where: { id: o.chain.ownerId }, select: { name: true } });
    const index = indexXml({
      supplier: owner.name,
      location: o.location,
      comment: `Silo auditor's export of ${chainName(o.chain)}: entries and file versions stored ${o.period.from} to ${o.period.to} (UTC), made ${createdAt.toISOString()}`,
      period: o.period,
      tables: [ENTRIES_TABLE, FILES_TABLE],
    });
    const named: ExportMember[] = [
      small('index.xml', Buffer.from(index), createdAt),
      small(DTD_NAME, Buffer.from(GDPDU_DTD), createdAt),
      spilled('entries.csv', entriesFile, createdAt),
      spilled('files.csv', filesFile, createdAt),
      await paged('events.jsonl', () => eventLines(o.db, o.chain, events), createdAt),
      await paged('checkpoints.jsonl', checkpointLines(o.db, o.chain, events), createdAt),
    ];
    const versionMembers = () => listedMembers(listFile.path, o.store);

    const head = {
      format: EXPORT_FORMAT,
      chain: chainName(o.chain),
      period: { from: o.period.from, to: o.period.to },
      created_at: createdAt.toISOString(),
      events: { first_seq: events.first, last_seq: events.last },
      key_id: o.key.keyId,
      public_key: o.key.publicPem,
    };
    const manifestFile = await spill('manifest.json');
    for await (const text of manifestText(head, named, versionMembers())) await manifestFile.write(text);
    const manifest = await manifestFile.close();
    files.length = 0;
    // Ed25519 signs a whole message (RFC 8032 hashes it twice): the manifest is in memory while it
    // is signed, about 150 bytes per version, and let go before the ZIP is sent.
    const signature = Buffer.from(signBytes(o.key, await readFile(manifest.path)));
    const first = [spilled('manifest.json', manifest, createdAt), small('manifest.sig', signature, createdAt), ...named];
    return {
      chain: chainName(o.chain),
      period: o.period,
      createdAt,
      async *members() {
        yield* first;
        yield* versionMembers();
      },
      manifestSha256: manifest.sha256,
      versions,
      bytes,
      events,
      dispose,
    };
  } catch (err) {
    await Promise.all(files.map((f) => f.discard()));
    await dispose();
    throw err;
  }
}

/**
 * manifest.json's text, in pieces: exactly `JSON.stringify(head + {files}, null, 1)` and a newline
 * (write-export.test.ts holds it to that), written member by member instead of built whole.
 */
export async function* manifestText(
  head: Record<string, unknown>,
  named: readonly Pick<ExportMember, 'name' | 'sha256' | 'size'>[],
  more: AsyncIterable<Pick<ExportMember, 'name' | 'sha256' | 'size'>>,
): AsyncIterable<string> {
  const open = JSON.stringify({ ...head, files: {} }, null, 1);
  yield `${open.slice(0, open.length - '{}\n}'.length)}{`;
  let n = 0;
  const entry = (m: Pick<ExportMember, 'name' | 'sha256' | 'size'>) =>
    `${n++ ? ',' : ''}\n  ${JSON.stringify(m.name)}: {\n   "sha256": ${JSON.stringify(m.sha256)},\n   "size": ${m.size}\n  }`;
  yield named.map(entry).join('');
  let batch = '';
  for await (const m of more) {
    batch += entry(m);
    if (batch.length >= 64 * 1024) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}${n ? '\n }' : '}'}\n}\n`;
}

/**
 * The versions the plan listed (versions.jsonl: [name, size, sha256, ms] a line), as members whose
 * bytes come from the store (a backup's blobs.jsonl too). Where
 * the store keeps small bytes in the database (DatabaseStore.keptMany), the next small versions'
 * bytes are fetched in one statement when the ZIP opens the first of them, instead of a round trip
 * each: a year of invoices is hundreds of thousands of them.
 */
export async function* listedMembers(file: string, store: BlobStore): AsyncIterable<ExportMember> {
  const db = store as Partial<DatabaseStore>;
  const many = db.keptMany?.bind(store);
  const pooled = (db.inner ?? store) as { readChunks?: LocalDiskStore['readChunks'] };
  type Listed = { name: string; size: number; sha256: string; at: number };
  // A batch is the next lines up to keptBatches' bounds (a batch is held until the ZIP has sent
  // it), read before any is yielded: its statement, made when the ZIP opens the first of them, then
  // asks for all of them.
  function* membersOf(chunk: Listed[]): Iterable<ExportMember> {
    const small = many ? chunk.filter((v) => v.size <= SMALL_BLOB_CEILING).map((v) => v.sha256) : [];
    let loaded: Promise<Map<string, Buffer>> | undefined;
    const load = () => (loaded ??= (many as NonNullable<typeof many>)(small));
    for (const { name, size, sha256, at } of chunk) {
      // The one place the export reads a version's bytes. A large one is never kept by the
      // database: on local disk it is read into the writer's pooled buffers.
      const read = (pool?: ChunkPool) =>
        pool && size > SMALL_BLOB_CEILING && pooled?.readChunks ? pooled.readChunks(sha256, pool) : store.read(sha256, undefined, size);
      const open =
        many && size <= SMALL_BLOB_CEILING
          ? async () => {
              const bytes = (await load()).get(sha256);
              if (bytes) return Readable.from([bytes], { objectMode: false });
              // Not kept by the database (its batch said so): the wrapped store's, asked straight
              // instead of through read(), which would ask the database again first.
              return db.inner ? db.inner.read(sha256, undefined, size) : read();
            }
          : read;
      yield { name, size, sha256, mtime: new Date(at), open };
    }
  }
  let chunk: Listed[] = [];
  const batches = keptBatches();
  for await (const line of spilledLines(file)) {
    const [name, size, sha256, at] = JSON.parse(line) as [string, number, string, number];
    if (batches.next(size)) {
      yield* membersOf(chunk);
      chunk = [];
    }
    chunk.push({ name, size, sha256, at });
  }
  yield* membersOf(chunk);
}
