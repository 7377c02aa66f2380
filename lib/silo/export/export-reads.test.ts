// How the export reads the versions' bytes (write-export.ts, plan-export.ts' listedVersions), on
// both databases over local disk: a reader that stops reading opens no blob past those read ahead
// (eight small ones, or 4 MiB's worth: a store whose every read is a round trip has the next ones
// waiting), and an abort closes every one open; large versions are read through the wrapped
// store's pooled reads where it has them (chunk-pool.ts); small versions the database keeps are
// fetched 200 to a statement, and one it does not keep from the store straight.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BlobStore } from '../../storage/blob-store';
import type { ChunkPool } from '../../storage/chunk-pool';
import type { LocalDiskStore } from '../../storage/local-disk';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { SMALL_BLOB_LIMITS, parseFileInput as parse } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { createEntry } from '../create-entry';
import { createFile } from '../files/create-file';
import { key, period } from '../../testing/export-fixtures';
import { type ExportMember, planExport } from './plan-export';
import { verifyExport } from './verify-export';
import { AHEAD_BYTES, AHEAD_SOURCES, readAhead, writeExport } from './write-export';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-export-reads-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each(testDatabases())('the export’s reads on %s (local disk)', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());

  /**
   * A workspace of its own holding versions of these sizes, exported through a store that counts
   * what is opened and closed, read up to 100 KiB into the first version and then not at all.
   */
  async function stalledExport(name: string, sizes: number[]) {
    const opened: string[] = [];
    let closed = 0;
    // Every version through read(): without keptMany, the small ones are not fetched in batches;
    // the large ones through the wrapped store's pooled reads (readChunks) where it has them.
    const pooled = ((w.store as { inner?: BlobStore }).inner ?? w.store) as { readChunks?: LocalDiskStore['readChunks'] };
    const counted = (source: AsyncIterable<Buffer>): AsyncIterableIterator<Buffer> => {
      const it = source[Symbol.asyncIterator]();
      let ended = false;
      const end = () => {
        if (!ended) closed++;
        ended = true;
      };
      const wrapped: AsyncIterableIterator<Buffer> = {
        next: async () => {
          const r = await it.next();
          if (r.done) end();
          return r;
        },
        return: async () => {
          end();
          return (await it.return?.()) ?? { done: true, value: undefined };
        },
        [Symbol.asyncIterator]: () => wrapped,
      };
      return wrapped;
    };
    const counting: BlobStore = Object.assign(Object.create(w.store), {
      read: async (...args: Parameters<BlobStore['read']>) => {
        opened.push(args[0]);
        const s = await w.store.read(...args);
        s.once('close', () => closed++);
        return s;
      },
      keptMany: undefined,
      inner: pooled.readChunks && {
        readChunks: async (hash: string, pool: ChunkPool) => {
          opened.push(hash);
          return counted(await (pooled.readChunks as NonNullable<typeof pooled.readChunks>).call(pooled, hash, pool));
        },
      },
    });
    const owner = await createTestOwner(w.db.prisma, name);
    const chain = { ownerId: owner.id, sandbox: false };
    const entryId = (await createEntry({ actor: TEST_ACTOR, db: w.db.prisma, target: chain, input: { folder: '', name, meta: {} } })).entry
      .id;
    for (const [i, size] of sizes.entries()) {
      const input = parse({ name: `${i}.bin`, data: randomBytes(size).toString('base64') });
      await createFile({
        db: w.db.prisma,
        store: w.store,
        scope: { owners: [owner.id], sandbox: false },
        entryId,
        input,
        limits: SMALL_BLOB_LIMITS,
      });
    }
    const plan = await planExport({ db: w.db.prisma, store: counting, chain, period, key, location: 'x' });
    const zip = writeExport(plan);
    const members: ExportMember[] = [];
    for await (const m of plan.members()) members.push(m);
    // Take the small members and 100 KiB of the first version, then stop reading.
    const firstBlob = members.findIndex((m) => m.name.startsWith('files/'));
    const upTo = members.slice(0, firstBlob).reduce((n, m) => n + 30 + Buffer.byteLength(m.name) + m.size + 24, 0) + 100 * 1024;
    let taken = 0;
    await new Promise<void>((resolve) => {
      const take = (b: Buffer) => {
        taken += b.length;
        if (taken < upTo) return;
        zip.stream.pause();
        zip.stream.off('data', take);
        resolve();
      };
      zip.stream.on('data', take);
    });
    // At rest: the ZIP's buffer is full, so its generator, which alone opens sources, is not asked
    // for more until the reader takes some.
    await vi.waitFor(() => expect(zip.stream.readableLength).toBeGreaterThanOrEqual(zip.stream.readableHighWaterMark), {
      timeout: 10_000,
      interval: 10,
    });
    const versions = members.slice(firstBlob).map((m) => m.sha256);
    return { opened, closed: () => closed, zip, versions };
  }

  it('opens one large version ahead at most while the reader stops taking bytes, and an abort closes what is open', async () => {
    // Versions of 4 MiB, each in the store (more than the pipes between a source and the reader
    // hold: the store reads 1 MiB at a time): 4 MiB opened ahead is as far as it goes.
    const { opened, closed, zip, versions } = await stalledExport('Large', [4 << 20, 4 << 20, 4 << 20]);
    // the version being read, and the next opened ahead; never the third
    expect(opened).toEqual(versions.slice(0, 2));
    zip.abort();
    await vi.waitFor(() => expect(closed()).toBe(2));
    expect(opened).toHaveLength(2);
  });

  it('opens up to eight small versions ahead (a round trip each on S3), never more, and an abort closes them all', async () => {
    // The first version large enough to be read from when the reader stops, then ten of 100 KiB
    // (kept in the database): eight of them are opened ahead, not the last two.
    const { opened, closed, zip, versions } = await stalledExport('Small', [4 << 20, ...Array(10).fill(100 * 1024)]);
    expect(opened).toEqual(versions.slice(0, 1 + AHEAD_SOURCES));
    zip.abort();
    await vi.waitFor(() => expect(closed()).toBe(1 + AHEAD_SOURCES));
    expect(opened).toHaveLength(1 + AHEAD_SOURCES);
  });
  it('fetches the bytes of small versions kept in the database a batch at a time, one statement each', async () => {
    const owner = await createTestOwner(w.db.prisma, 'Batches');
    const chain = { ownerId: owner.id, sandbox: false };
    const scope = { owners: [owner.id], sandbox: false };
    const entryId = (await createEntry({ actor: TEST_ACTOR, db: w.db.prisma, target: chain, input: { folder: '', name: 'b', meta: {} } }))
      .entry.id;
    // 250 small versions (two batches of at most 200) and one in the store (read on its own)
    const big = randomBytes(300 * 1024);
    for (let i = 0; i < 250; i++) {
      const input = parse({ name: `${i}.xml`, data: Buffer.from(`<Invoice>${i}</Invoice>`).toString('base64') });
      await createFile({ db: w.db.prisma, store: w.store, scope, entryId, input, limits: SMALL_BLOB_LIMITS });
    }
    await createFile({
      db: w.db.prisma,
      store: w.store,
      scope,
      entryId,
      input: parse({ name: 'big.bin', data: big.toString('base64') }),
      limits: SMALL_BLOB_LIMITS,
    });
    const batches: number[] = [];
    const reads: string[] = [];
    const innerReads: string[] = [];
    const counting: BlobStore = Object.assign(Object.create(w.store), {
      read: (...args: Parameters<BlobStore['read']>) => {
        reads.push(args[0]);
        return w.store.read(...args);
      },
      inner: Object.assign(Object.create(w.store.inner), {
        read: (...args: Parameters<BlobStore['read']>) => {
          innerReads.push(args[0]);
          return w.store.inner.read(...args);
        },
      }),
      keptMany: (hashes: string[]) => {
        batches.push(hashes.length);
        return w.store.keptMany(hashes);
      },
    });
    const file = path.join(dir, `${database}-batches.zip`);
    const plan = await planExport({ db: w.db.prisma, store: counting, chain, period, key, location: 'x' });
    await pipeline(writeExport(plan).stream, createWriteStream(file));
    // The 300 KiB one is under the database's ceiling, so asked for in the second batch too; it is
    // the wrapped store's (over SMALL_BLOB_MAX_BYTES), so read from there on its own after, without
    // asking the database again.
    expect(batches).toEqual([200, 51]);
    expect(reads).toEqual([]);
    expect(innerReads).toEqual([createHash('sha256').update(big).digest('hex')]);
    await expect(verifyExport(file, { publicKey: key.publicKey })).resolves.toMatchObject({ versions: 251 });
  }, 120_000);
});

describe('readAhead', () => {
  const sized = (...sizes: number[]) => sizes.map((size) => ({ size }));
  it('opens the next members in order, up to eight, or until those opened hold 4 MiB', () => {
    expect(readAhead(sized(...Array(20).fill(10)), 3)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(AHEAD_SOURCES).toBe(8);
    const mib = AHEAD_BYTES / 4;
    expect(readAhead(sized(1, mib, mib, mib, mib, mib), 0)).toEqual([1, 2, 3, 4]);
    expect(readAhead(sized(1, 5 * mib, 1, 1), 0)).toEqual([1]);
    expect(readAhead(sized(1, 1, 1), 1)).toEqual([2]);
    expect(readAhead(sized(1, 1, 1), 2)).toEqual([]);
  });
});
