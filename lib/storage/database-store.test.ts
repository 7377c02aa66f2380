// DatabaseStore's own rules (database-store.ts), beyond the store suite: small bytes put and served
// from the database, larger ones from the store it wraps (a large file's read never asks the
// database), a hash in both listed once and freed from both, the read cache (never asked whether a
// blob exists), and the view within a transaction.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SMALL_BLOB_CEILING } from '../config';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { DatabaseStore, keptBatches, storeIn } from './database-store';
import type { BlobInfo, BlobStore } from './blob-store';
import { LocalDiskStore } from './local-disk';
import { readAll, sha } from './store-suite-helpers';

const KEEP_UP_TO = 1024;

describe.each(testDatabases())('DatabaseStore (%s)', (database) => {
  // One database (opening one takes seconds), emptied of blobs for each case; a fresh directory each case.
  let w: TestWorld;
  let local: LocalDiskStore;
  let store: DatabaseStore;
  const dirs: string[] = [];
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(async () => {
    await w?.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db().$executeRaw`DELETE FROM blobs`;
    dirs.push(await mkdtemp(path.join(os.tmpdir(), 'silo-dbstore-')));
    local = new LocalDiskStore(dirs[dirs.length - 1], w.disk.io);
    store = new DatabaseStore(db(), local, { keepUpTo: KEEP_UP_TO });
  });

  const db = () => w.db.prisma;
  const kept = async (hash: string) =>
    (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM blobs WHERE hash = ${hash} AND data IS NOT NULL`)[0].n === 1;
  const keep = (hash: string, bytes: Buffer) =>
    db().$executeRaw`INSERT INTO blobs (hash, size, data) VALUES (${hash}, ${bytes.length}, ${bytes})
      ON CONFLICT (hash) DO UPDATE SET data = EXCLUDED.data`;
  const onDisk = async (bytes: Buffer) => {
    const got = await local.receive('u', [bytes], { offset: 0, maxBytes: bytes.length });
    await local.commitHeld('u', got.hash);
    return got.hash;
  };
  const listed = async (s: BlobStore = store) => {
    const out: BlobInfo[] = [];
    for await (const b of s.listBlobs()) out.push(b);
    return out;
  };
  const text = async (s: BlobStore, hash: string, range?: { start: number; end: number }, size?: number) =>
    (await readAll(await s.read(hash, range, size))).toString();

  it('puts bytes up to keepUpTo in the database and serves them from there, whole and by range; a read-only disk is no matter', async () => {
    const small = randomBytes(KEEP_UP_TO);
    w.disk.readOnly();
    try {
      await store.put(sha(small), small);
      expect([await kept(sha(small)), await local.exists(sha(small))]).toEqual([true, false]);
      expect(await store.exists(sha(small))).toBe(true);
      expect(await store.blobSize(sha(small))).toBe(KEEP_UP_TO);
      expect((await readAll(await store.read(sha(small)))).equals(small)).toBe(true);
      expect((await readAll(await store.read(sha(small), { start: 10, end: 19 }))).equals(small.subarray(10, 20))).toBe(true);
      expect((await listed()).map((b) => [b.hash, b.size])).toEqual([[sha(small), KEEP_UP_TO]]);
    } finally {
      w.disk.heal();
    }
  });

  it('delegates larger bytes, and everything with keepUpTo 0, to the store it wraps', async () => {
    const large = randomBytes(KEEP_UP_TO + 1);
    await store.put(sha(large), large);
    expect([await kept(sha(large)), await local.exists(sha(large))]).toEqual([false, true]);
    const small = Buffer.from('small, but never kept here');
    await new DatabaseStore(db(), local, { keepUpTo: 0 }).put(sha(small), small);
    expect([await kept(sha(small)), await local.exists(sha(small))]).toEqual([false, true]);
    expect(await text(store, sha(small))).toBe('small, but never kept here');
    expect(await store.blobSize(sha(large))).toBe(large.length);
  });

  it('reads the database first, and a file over SMALL_BLOB_CEILING asks only the wrapped store', async () => {
    // Other bytes under the hash in the database (as a damaged row would be) tell which copy answers.
    const hash = await onDisk(Buffer.from('from the disk'));
    await keep(hash, Buffer.from('from the database'));
    expect(await text(store, hash)).toBe('from the database');
    expect(await text(store, hash, { start: 0, end: 3 }, 13)).toBe('from');
    const other = new DatabaseStore(db(), local, { keepUpTo: KEEP_UP_TO, cache: false });
    expect(await text(other, hash, undefined, SMALL_BLOB_CEILING + 1)).toBe('from the disk');
    expect(await text(other, hash, { start: 9, end: 12 }, SMALL_BLOB_CEILING + 1)).toBe('disk');
  });

  it('lists a hash in both once, with the older time, and frees both on delete; the row stays for blobs.ts', async () => {
    const bytes = Buffer.from(`in both ${randomBytes(4).toString('hex')}`);
    const hash = await onDisk(bytes);
    await keep(hash, bytes);
    await db().$executeRaw`UPDATE blobs SET created_at = now() - interval '1 day' WHERE hash = ${hash}`;
    const alone = Buffer.from('only on the disk');
    await onDisk(alone);
    const list = await listed();
    expect(list.map((b) => b.hash).sort()).toEqual([hash, sha(alone)].sort());
    expect(Date.now() - list.find((b) => b.hash === hash)!.modifiedAt.getTime()).toBeGreaterThan(23 * 3600_000);
    await store.delete(hash);
    expect([await kept(hash), await local.exists(hash), await store.exists(hash)]).toEqual([false, false, false]);
    expect(await store.blobSize(hash)).toBeUndefined();
    expect(
      (
        await store.read(hash).then(
          () => null,
          (e: Error) => e,
        )
      )?.name,
    ).toBe('BlobMissing');
    expect((await db().$queryRaw<unknown[]>`SELECT 1 FROM blobs WHERE hash = ${hash}`).length).toBe(1);
    expect((await listed()).map((b) => b.hash)).toEqual([sha(alone)]);
  });

  it('serves repeated reads from its cache, but never answers exists or a size from it; a delete forgets', async () => {
    const bytes = Buffer.from(`cached ${randomBytes(4).toString('hex')}`);
    const hash = sha(bytes);
    await store.put(hash, bytes);
    expect(await text(store, hash)).toBe(bytes.toString());
    // Changed behind the store's back: reads keep the cached bytes, an uncached store reads the row.
    await keep(hash, Buffer.from('changed behind its back'));
    expect(await text(store, hash)).toBe(bytes.toString());
    expect(await text(new DatabaseStore(db(), local, { keepUpTo: KEEP_UP_TO, cache: false }), hash)).toBe('changed behind its back');
    expect(await store.blobSize(hash)).toBe('changed behind its back'.length);
    // Gone from the database (another process freed it): exists and the size say so, cache or not.
    await db().$executeRaw`UPDATE blobs SET data = NULL WHERE hash = ${hash}`;
    expect([await store.exists(hash), await store.blobSize(hash)]).toEqual([false, undefined]);
    // Put again and freed through the store: no read answers from the cache after it.
    await store.put(hash, bytes);
    await store.delete(hash);
    expect(
      (
        await store.read(hash).then(
          () => null,
          (e: Error) => e,
        )
      )?.name,
    ).toBe('BlobMissing');
  });

  it('asks the database through a transaction within it, seeing its writes (the embedded database would otherwise wait on it)', async () => {
    const bytes = Buffer.from(`in a transaction ${randomBytes(4).toString('hex')}`);
    const hash = sha(bytes);
    const seen = await db().$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO blobs (hash, size, data) VALUES (${hash}, ${bytes.length}, ${bytes})`;
      const view = storeIn(store, tx);
      const seen = [await view.exists(hash), await view.blobSize(hash), await text(view, hash)];
      await view.delete(hash);
      return [...seen, await view.exists(hash)];
    });
    expect(seen).toEqual([true, bytes.length, bytes.toString(), false]);
    expect(await kept(hash)).toBe(false);
    // Any other store is its own view.
    expect(storeIn(local, db())).toBe(local);
  });
});

describe('keptBatches', () => {
  /** The sizes of each batch `sizes` is split into. */
  const split = (sizes: number[]) => {
    const batches = keptBatches();
    const out: number[][] = [];
    for (const size of sizes) {
      if (batches.next(size) || !out.length) out.push([]);
      out[out.length - 1].push(size);
    }
    return out.map((b) => b.length);
  };

  it('asks for 200 at a time, fewer once the small ones come to 4 MiB; a large blob weighs nothing', () => {
    expect(split(Array(450).fill(100))).toEqual([200, 200, 50]);
    expect(split(Array(10).fill(SMALL_BLOB_CEILING))).toEqual([4, 4, 2]);
    expect(split([...Array(4).fill(SMALL_BLOB_CEILING), SMALL_BLOB_CEILING + 1, 1])).toEqual([5, 1]);
    expect(split([SMALL_BLOB_CEILING + 1])).toEqual([1]);
  });
});
