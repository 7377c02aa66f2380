// The one BlobStore that readers and writers of file bytes use: small blobs kept in the database
// (`blobs.data`), everything else in the configured store (a directory or a bucket), which it
// wraps. Reads, exists, sizes and the listing answer from the database first and delegate
// otherwise; deletion frees both; held copies (uploads) are always the wrapped store's. No reader
// of bytes needs to know where they are (downloads, links, fsck, the sweep, the export).
//
// The SQL that writes the database's bytes is here alone (keepBytesSql, dropKeptBytes), whoever
// runs it: `put` of bytes up to `keepUpTo` (an inline completion of a placeholder), `delete`, the
// sweep, and an inline file up to SMALL_BLOB_MAX_BYTES, whose bytes the statement that records the
// file writes (insertCurrent, lib/silo/files/small-blobs.ts: one round trip instead of a
// transaction's four, a measured win). The row of `blobs` stays the bookkeeping of
// lib/silo/files/blobs.ts: this store writes and clears `data`, never inserts a row without bytes
// nor removes one.
//
// Inside a transaction (a hash's lock held, blobs.ts) the database must be asked through that
// transaction: the embedded database has one connection, and a query beside an open transaction
// waits for it to end. storeIn(store, tx) gives that view.
import { LRUCache } from 'lru-cache';
import { Readable } from 'node:stream';
import { SMALL_BLOB_CEILING } from '../config';
import type { Tx } from '../db/client';
import { Prisma } from '../db/generated/client';
import { owned } from '../owned-buffer';
import {
  assertHash,
  type BlobInfo,
  type BlobLock,
  type BlobStore,
  type ByteRange,
  type PlaceOptions,
  type ReceiveOptions,
  type Received,
} from './blob-store';

export interface DatabaseStoreOptions {
  /** `put` keeps bytes up to this size in the database; larger ones (and every one with 0) go to the wrapped store */
  keepUpTo: number;
  /** serve repeated reads from the process's cache of small bytes (default); fsck reads what the database holds */
  cache?: boolean;
}

/**
 * Bytes by hash, for reads (32 MiB, least recently used), shared by every DatabaseStore of the
 * process. A hash names its bytes forever, so a cached value can never be wrong: only a freed
 * blob's may linger in another process, and no stored file refers to it to be read through.
 * Existence and sizes are never answered from it.
 */
const g = globalThis as unknown as { __siloSmallBlobs?: LRUCache<string, Buffer> };
/** A cached blob's own cost beside its bytes: its Buffer, its memory's bookkeeping, the cache's entry. */
const CACHED_OBJECT_BYTES = 256;
const cache = () =>
  (g.__siloSmallBlobs ??= new LRUCache<string, Buffer>({
    maxSize: 32 * 1024 * 1024,
    sizeCalculation: (bytes) => bytes.length + CACHED_OBJECT_BYTES,
  }));

/** Forgets this process's cached bytes of a freed blob. */
export const forgetBytes = (hash: string) => cache().delete(hash);

/**
 * The statement that keeps `bytes` as blob `hash`'s row, `data` (small bytes: the database's). A
 * row of the same hash gets the bytes written again, whether it held them or not: the same work
 * either way, so no workspace can time whether another stored them (dedup-timing.slow.test.ts). `after`:
 * a CTE of the caller's statement the insert reads first, so it runs after it (the hash's lock,
 * taken by the statement that records the file in the same round trip: insertCurrent).
 */
export function keepBytesSql(hash: string, bytes: Uint8Array, after?: string): Prisma.Sql {
  // As base64 text: the embedded database's driver would spell a bytea out a byte at a time.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return Prisma.sql`INSERT INTO blobs (hash, size, data) SELECT ${hash}, ${bytes.length}, decode(${text}, 'base64')${
    after ? Prisma.raw(` FROM ${after}`) : Prisma.empty
  } ON CONFLICT (hash) DO UPDATE SET data = EXCLUDED.data`;
}

/**
 * Clears the bytes the database keeps of blob `hash` (its row stays: blobs.ts removes it) and
 * forgets them here, unless `unless` (a condition on the row `b`: the sweep's, a stored file refers
 * to it) keeps them. Answers whether there were bytes to clear.
 */
export async function dropKeptBytes(db: Tx, hash: string, unless?: Prisma.Sql): Promise<boolean> {
  const condition = unless ? Prisma.sql` AND NOT (${unless})` : Prisma.empty;
  const dropped = (await db.$executeRaw`UPDATE blobs b SET data = NULL WHERE b.hash = ${hash} AND b.data IS NOT NULL${condition}`) > 0;
  if (dropped || !unless) forgetBytes(hash);
  return dropped;
}

const BATCH = 500;

/** keptMany is asked for this many blobs at a time… */
const KEPT_MANY_COUNT = 200;
/** …or fewer, once the small ones among them come to this: what a reader holds at once. */
const KEPT_MANY_BYTES = 4 * 1024 * 1024;

/**
 * Splits a run of blobs, in the order a reader reads them, into keptMany's batches (the export's
 * versions, fsck's blobs): at most KEPT_MANY_COUNT, whose small sizes (up to SMALL_BLOB_CEILING)
 * come to at most KEPT_MANY_BYTES, or one blob. `next(size)` is true when the blob of `size` starts
 * a new batch: the caller ends the one it holds first.
 */
export function keptBatches(): { next(size: number): boolean } {
  let count = 0;
  let bytes = 0;
  return {
    next(size) {
      const small = size <= SMALL_BLOB_CEILING ? size : 0;
      const starts = count > 0 && (count >= KEPT_MANY_COUNT || bytes + small > KEPT_MANY_BYTES);
      if (starts) count = bytes = 0;
      count++;
      bytes += small;
      return starts;
    },
  };
}

export class DatabaseStore implements BlobStore {
  readonly kind: string;
  /** The wrapped store's lock, when it has one (BlobStore.lock): bytes kept in the database are not its to lock. */
  lock?: (hash: string, lock: BlobLock) => Promise<void>;

  constructor(
    /** the client, or (in a view from within()) an open transaction */
    private db: Tx,
    readonly inner: BlobStore,
    private readonly opts: DatabaseStoreOptions,
  ) {
    this.kind = `database+${inner.kind}`;
    // Unbound: called on a view from within(), it asks the database through that view's transaction.
    if (inner.lock) this.lock = this.lockWrapped;
  }

  private async lockWrapped(this: DatabaseStore, hash: string, lock: BlobLock): Promise<void> {
    const rows = await this.db.$queryRaw<unknown[]>`SELECT 1 FROM blobs WHERE hash = ${hash} AND data IS NOT NULL`;
    if (rows.length) return;
    await this.inner.lock?.(hash, lock);
  }

  /** This store asking the database through transaction `tx` (everything else is shared, overrides of a test's copy included). */
  within(tx: Tx): DatabaseStore {
    return Object.assign(Object.create(this) as DatabaseStore, { db: tx });
  }

  /** The bytes of `hash` the database keeps, else undefined (in the wrapped store, or gone). */
  private async kept(hash: string): Promise<Buffer | undefined> {
    const useCache = this.opts.cache !== false;
    const cached = useCache ? cache().get(hash) : undefined;
    if (cached) return cached;
    // As base64 text: the embedded database's driver parses a bytea column one byte at a time.
    const rows = await this.db.$queryRaw<
      { data: string }[]
    >`SELECT encode(data, 'base64') AS data FROM blobs WHERE hash = ${hash} AND data IS NOT NULL`;
    if (!rows.length) return undefined;
    // Kept: in memory of its own, not a slice of Node's buffer pool (owned-buffer.ts).
    const bytes = owned(Buffer.from(rows[0].data, 'base64'));
    if (useCache) cache().set(hash, bytes);
    return bytes;
  }

  /**
   * The bytes the database keeps of each of `hashes`, in one statement, past the cache (a reader of
   * many blobs once, as the export, would only push out what others read again). A hash missing
   * from the answer is the wrapped store's (or gone): read() it.
   */
  async keptMany(hashes: readonly string[]): Promise<Map<string, Buffer>> {
    if (!hashes.length) return new Map();
    const rows = await this.db.$queryRaw<{ hash: string; data: string }[]>`
      SELECT hash, encode(data, 'base64') AS data FROM blobs WHERE hash = ANY(${[...new Set(hashes)]}::text[]) AND data IS NOT NULL`;
    return new Map(rows.map((r) => [r.hash, Buffer.from(r.data, 'base64')]));
  }

  receive(uploadId: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, opts: ReceiveOptions): Promise<Received> {
    return this.inner.receive(uploadId, source, opts);
  }

  heldSize(uploadId: string): Promise<number> {
    return this.inner.heldSize(uploadId);
  }

  adoptHeld(uploadId: string, generation: number): Promise<number> {
    return this.inner.adoptHeld(uploadId, generation);
  }

  listHeld(): Promise<{ uploadId: string; modifiedAt: Date }[]> {
    return this.inner.listHeld();
  }

  dropHeld(uploadId: string): Promise<void> {
    return this.inner.dropHeld(uploadId);
  }

  /** A held copy is the wrapped store's, and is placed there (an upload's bytes, of any size). */
  commitHeld(uploadId: string, hash: string, opts?: PlaceOptions): Promise<void> {
    return this.inner.commitHeld(uploadId, hash, opts);
  }

  /**
   * Up to keepUpTo: one autocommit statement (keepBytesSql), durable once it returns (the
   * write-ahead log), as a commitHeld is. A lock (`opts`) is the wrapped store's: bytes kept here
   * are guarded by the database.
   */
  async put(hash: string, bytes: Uint8Array, opts?: PlaceOptions): Promise<void> {
    if (bytes.length > this.opts.keepUpTo) return this.inner.put(hash, bytes, opts);
    assertHash(bytes, hash);
    await this.db.$executeRaw(keepBytesSql(hash, bytes));
  }

  /** `size` (the file's): bytes over SMALL_BLOB_CEILING are never in the database, and a large file's read asks it nothing. */
  async read(hash: string, range?: ByteRange, size?: number): Promise<Readable> {
    if (size !== undefined && size > SMALL_BLOB_CEILING) return this.inner.read(hash, range, size);
    const bytes = await this.kept(hash);
    if (!bytes) return this.inner.read(hash, range, size);
    return Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes], { objectMode: false });
  }

  async exists(hash: string): Promise<boolean> {
    const rows = await this.db.$queryRaw<unknown[]>`SELECT 1 FROM blobs WHERE hash = ${hash} AND data IS NOT NULL`;
    return rows.length > 0 || this.inner.exists(hash);
  }

  async blobSize(hash: string): Promise<number | undefined> {
    const rows = await this.db.$queryRaw<
      { size: number }[]
    >`SELECT octet_length(data)::int AS size FROM blobs WHERE hash = ${hash} AND data IS NOT NULL`;
    return rows.length ? rows[0].size : this.inner.blobSize(hash);
  }

  /**
   * The wrapped store's blobs, then those only the database keeps; a hash in both is listed once,
   * with the older of its two times (the sweep leaves alone what is older than its horizon).
   */
  async *listBlobs(): AsyncIterable<BlobInfo> {
    const both = new Set<string>();
    let batch: BlobInfo[] = [];
    for await (const b of this.inner.listBlobs()) {
      batch.push(b);
      if (batch.length < BATCH) continue;
      yield* await this.keptAmong(batch, both);
      batch = [];
    }
    yield* await this.keptAmong(batch, both);
    for (let after = ''; ; ) {
      const rows = await this.db.$queryRaw<{ hash: string; size: number; at: Date }[]>`
        SELECT hash, octet_length(data)::int AS size, created_at AS at FROM blobs
        WHERE data IS NOT NULL AND hash > ${after} ORDER BY hash LIMIT ${BATCH}`;
      if (!rows.length) return;
      after = rows[rows.length - 1].hash;
      for (const r of rows) if (!both.has(r.hash)) yield { hash: r.hash, size: r.size, modifiedAt: r.at };
    }
  }

  /** `blobs` of the wrapped store, those the database keeps too added to `both` and dated by the older time. */
  private async keptAmong(blobs: BlobInfo[], both: Set<string>): Promise<BlobInfo[]> {
    if (!blobs.length) return [];
    const rows = await this.db.$queryRaw<{ hash: string; at: Date }[]>`
      SELECT hash, created_at AS at FROM blobs WHERE hash = ANY(${blobs.map((b) => b.hash)}::text[]) AND data IS NOT NULL`;
    const keptAt = new Map(rows.map((r) => [r.hash, r.at]));
    return blobs.map((b) => {
      const at = keptAt.get(b.hash);
      if (!at) return b;
      both.add(b.hash);
      return at < b.modifiedAt ? { ...b, modifiedAt: at } : b;
    });
  }

  /** Frees both copies: the wrapped store's first (a read-only store fails before the database changes), then the database's bytes. */
  async delete(hash: string): Promise<void> {
    await this.inner.delete(hash);
    await dropKeptBytes(this.db, hash);
  }

  claim(databaseId: string): Promise<void> {
    return this.inner.claim(databaseId);
  }

  check(): Promise<void> {
    return this.inner.check();
  }
}

/** `store` as seen from inside transaction `tx`: a DatabaseStore asks its database through it; any other store is itself. */
export function storeIn(store: BlobStore, tx: Tx): BlobStore {
  const within = (store as Partial<DatabaseStore>).within;
  return typeof within === 'function' ? within.call(store, tx) : store;
}
