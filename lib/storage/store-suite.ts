// The one test suite every BlobStore passes (as tus-node-server runs one suite against each of its
// stores): receive, resume, verify, place, dedup, read ranges, drop, sweep, claim, memory.
// A store's test file calls describeBlobStore with a way to open a fresh, empty store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBlobTooLarge, type BlobStore } from './blob-store';
import { breaksAfter, chunks, generated, MiB, random, readAll, rssWatch, sha, slice, SourceBroke } from './store-suite-helpers';

export interface StoreWorld {
  /** an empty store */
  store: BlobStore;
  /** another instance on the same bytes, as a second process would open it */
  reopen(): BlobStore;
  close(): Promise<void>;
}

const EMPTY_SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export function describeBlobStore(name: string, open: () => Promise<StoreWorld>) {
  describe(`BlobStore suite: ${name}`, () => {
    let w: StoreWorld;
    let store: BlobStore;
    beforeEach(async () => {
      w = await open();
      store = w.store;
    });
    afterEach(() => w.close());

    const receive = (s: BlobStore, id: string, bytes: Uint8Array, offset = 0, maxBytes = 1e9) =>
      s.receive(id, chunks(bytes), { offset, maxBytes, expectedHash: undefined });
    const blobs = async (s = store) => {
      const out = [];
      for await (const b of s.listBlobs()) out.push(b);
      return out;
    };
    const held = async (s = store) => (await s.listHeld()).map((h) => h.uploadId).sort();
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => expect.unreachable('it should fail'),
        (err: Error) => err,
      );
    /** Nothing readable under the hash, and no blob at all. */
    const invisible = async (hash: string) => {
      expect(await store.exists(hash)).toBe(false);
      expect(await store.blobSize(hash)).toBeUndefined();
      expect((await failure(store.read(hash))).name).toBe('BlobMissing');
      expect(await blobs()).toEqual([]);
    };

    // First, while the process is fresh: memory freed by earlier cases would hide growth.
    it('streams: a 200 MiB upload and its fetch keep the process within 150 MB of where it started', async () => {
      const total = 200 * MiB;
      const up = rssWatch();
      const { source, result } = generated(total, up.sample);
      const got = await store.receive('mem', source, { offset: 0, maxBytes: total });
      const upGrowth = up.stop();
      expect(got).toEqual({ size: total, hash: result.sha });
      await store.commitHeld('mem', got.hash);
      const down = rssWatch();
      let n = 0;
      const hash = (await import('node:crypto')).createHash('sha256');
      for await (const c of await store.read(got.hash)) {
        hash.update(c as Buffer);
        n += (c as Buffer).length;
        down.sample();
      }
      const downGrowth = down.stop();
      expect([n, hash.digest('hex')]).toEqual([total, got.hash]);
      // The figures go with a failure, not into every passing run's output.
      const growth = `${name}: RSS growth receiving 200 MiB ${upGrowth.toFixed(0)} MB, reading it ${downGrowth.toFixed(0)} MB`;
      expect(upGrowth, growth).toBeLessThan(150);
      expect(downGrowth, growth).toBeLessThan(150);
    });

    it('receives: hashes and counts as it goes, and holds the bytes where no read can see them', async () => {
      const bytes = random(10 * MiB + 123);
      const hash = sha(bytes);
      const got = await store.receive('up-1', chunks(bytes), { offset: 0, maxBytes: bytes.length, expectedHash: hash });
      expect(got).toEqual({ size: bytes.length, hash });
      expect(await store.heldSize('up-1')).toBe(bytes.length);
      expect(await held()).toEqual(['up-1']);
      await invisible(hash);
    });

    it('commits a verified held copy under its hash, readable whole and by range', async () => {
      const bytes = random(10 * MiB + 123);
      const hash = sha(bytes);
      const before = Date.now();
      await store.receive('up-1', chunks(bytes), { offset: 0, maxBytes: bytes.length, expectedHash: hash });
      await store.commitHeld('up-1', hash);
      expect(await store.exists(hash)).toBe(true);
      expect(await store.blobSize(hash)).toBe(bytes.length);
      expect(await store.heldSize('up-1')).toBe(0);
      expect(await held()).toEqual([]);
      const listed = await blobs();
      expect(listed.map((b) => [b.hash, b.size])).toEqual([[hash, bytes.length]]);
      expect(Math.abs(listed[0].modifiedAt.getTime() - before)).toBeLessThan(60_000);
      expect((await readAll(await store.read(hash))).equals(bytes)).toBe(true);
      const ranges = [
        [0, 0], // the first byte
        [bytes.length - 1, bytes.length - 1], // the last byte
        [1234, 8 * MiB + 4321], // the middle, across S3's first part boundary
        [0, bytes.length - 1], // the whole, as a range
      ];
      for (const [start, end] of ranges) {
        const got = await readAll(await w.reopen().read(hash, { start, end }));
        expect(got.equals(slice(bytes, start, end)), `bytes ${start}-${end}`).toBe(true);
      }
    });

    it('puts small bytes under their hash at once, the same bytes again harmlessly, never under another hash', async () => {
      const bytes = random(4096);
      const hash = sha(bytes);
      await Promise.all([store.put(hash, bytes), store.put(hash, bytes)]);
      await store.put(hash, bytes);
      expect(await store.exists(hash)).toBe(true);
      expect(await store.blobSize(hash)).toBe(bytes.length);
      expect((await readAll(await store.read(hash, undefined, bytes.length))).equals(bytes)).toBe(true);
      const other = random(100);
      expect((await failure(store.put(sha(other), bytes))).message).toMatch(/cannot be put/);
      expect(await store.exists(sha(other))).toBe(false);
      // Many at once (their directory syncs are shared), each whole; no held copy is left.
      const many = Array.from({ length: 40 }, () => random(1000));
      await Promise.all(many.map((b) => store.put(sha(b), b)));
      for (const b of many) expect((await readAll(await store.read(sha(b)))).equals(b)).toBe(true);
      expect(await held()).toEqual([]);
      expect((await blobs()).length).toBe(41);
    });

    it('stores identical bytes once: committing a duplicate drops its held copy', async () => {
      const bytes = random(300 * 1024);
      const hash = sha(bytes);
      await receive(store, 'a', bytes);
      await receive(store, 'b', bytes);
      await store.commitHeld('a', hash);
      await store.commitHeld('b', hash);
      expect((await blobs()).map((b) => b.hash)).toEqual([hash]);
      expect(await held()).toEqual([]);
      expect((await readAll(await store.read(hash))).equals(bytes)).toBe(true);
    });

    it('keeps what arrived when the source breaks off; another instance resumes with one hash over all of it', async () => {
      const bytes = random(3 * MiB + 17 + MiB);
      const first = bytes.subarray(0, 3 * MiB + 17);
      const err = await failure(store.receive('u', breaksAfter(first), { offset: 0, maxBytes: bytes.length }));
      expect(err).toBeInstanceOf(SourceBroke);
      const other = w.reopen();
      expect(await other.heldSize('u')).toBe(first.length);
      expect(await held(other)).toEqual(['u']);
      const got = await receive(other, 'u', bytes.subarray(first.length), first.length, bytes.length);
      expect(got).toEqual({ size: bytes.length, hash: sha(bytes) });
      await store.commitHeld('u', got.hash);
      expect((await readAll(await store.read(got.hash))).equals(bytes)).toBe(true);
    });

    it('resumes a 40 MiB upload broken off at odd places, alternating instances, without ever showing it', async () => {
      const bytes = random(40 * MiB + 5);
      const hash = sha(bytes);
      // Inside the first part, across two part boundaries, nothing new at all, a byte short of a boundary.
      const breaks = [5 * MiB + 3, 17 * MiB + 1, 17 * MiB + 1, 32 * MiB - 1];
      let at = 0;
      for (const [i, end] of breaks.entries()) {
        const s = i % 2 ? w.reopen() : store;
        const opts = { offset: at, maxBytes: bytes.length, expectedHash: hash };
        expect(await failure(s.receive('big', breaksAfter(bytes.subarray(at, end)), opts))).toBeInstanceOf(SourceBroke);
        expect(await w.reopen().heldSize('big')).toBe(end);
        await invisible(hash);
        at = end;
      }
      const got = await w.reopen().receive('big', chunks(bytes.subarray(at)), { offset: at, maxBytes: bytes.length, expectedHash: hash });
      expect(got).toEqual({ size: bytes.length, hash });
      await invisible(hash);
      await w.reopen().commitHeld('big', hash);
      expect(await held()).toEqual([]);
      expect((await readAll(await store.read(hash))).equals(bytes)).toBe(true);
      for (const [start, end] of [
        [8 * MiB - 1, 8 * MiB],
        [16 * MiB - 3, 40 * MiB + 4],
        [40 * MiB + 4, 40 * MiB + 4],
      ]) {
        expect((await readAll(await store.read(hash, { start, end }))).equals(slice(bytes, start, end))).toBe(true);
      }
    });

    it('past maxBytes refuses with BlobTooLarge and cuts the held copy back to the offset', async () => {
      // From offset 0: nothing stays held.
      const err = await failure(store.receive('a', chunks(random(120)), { offset: 0, maxBytes: 100 }));
      expect(isBlobTooLarge(err)).toBe(true);
      expect(await store.heldSize('a')).toBe(0);
      // From an offset: what was held before stays, even when the refused call had sent whole parts.
      const bytes = random(12 * MiB);
      const offset = 3 * MiB + 5;
      await store.receive('b', breaksAfter(bytes.subarray(0, offset)), { offset: 0, maxBytes: bytes.length }).catch(() => {});
      const tooMany = Buffer.concat([bytes.subarray(offset), random(14 * MiB)]);
      expect(isBlobTooLarge(await failure(store.receive('b', chunks(tooMany), { offset, maxBytes: 20 * MiB })))).toBe(true);
      expect(await w.reopen().heldSize('b')).toBe(offset);
      const got = await receive(w.reopen(), 'b', bytes.subarray(offset), offset, bytes.length);
      expect(got).toEqual({ size: bytes.length, hash: sha(bytes) });
    });

    it('starts over at offset 0, replacing a longer held copy', async () => {
      await receive(store, 'u', random(9 * MiB));
      const got = await receive(store, 'u', Buffer.from('short'));
      expect(got).toEqual({ size: 5, hash: sha(Buffer.from('short')) });
      expect(await store.heldSize('u')).toBe(5);
      await store.commitHeld('u', got.hash);
      expect((await readAll(await store.read(got.hash))).toString()).toBe('short');
    });

    it('holds and places an empty file', async () => {
      const got = await store.receive('e', [], { offset: 0, maxBytes: 10 });
      expect(got).toEqual({ size: 0, hash: EMPTY_SHA });
      await store.commitHeld('e', EMPTY_SHA);
      expect(await store.blobSize(EMPTY_SHA)).toBe(0);
      expect((await readAll(await store.read(EMPTY_SHA))).length).toBe(0);
    });

    it('a missing blob: BlobMissing on read, not there for exists and blobSize; deleting it is fine', async () => {
      const hash = sha(Buffer.from('never stored'));
      expect((await failure(store.read(hash, { start: 0, end: 3 }))).name).toBe('BlobMissing');
      await invisible(hash);
      await store.delete(hash);
    });

    it('drops held copies of any shape, and an unknown one without complaint', async () => {
      await receive(store, 'small', random(10));
      await store.receive('parts', breaksAfter(random(17 * MiB + 9)), { offset: 0, maxBytes: 1e9 }).catch(() => {});
      expect(await held()).toEqual(['parts', 'small']);
      await store.dropHeld('small');
      await w.reopen().dropHeld('parts');
      await store.dropHeld('never-held');
      expect(await held()).toEqual([]);
      expect(await store.heldSize('parts')).toBe(0);
      // The id can be used again from the start.
      const bytes = random(MiB);
      expect(await receive(store, 'parts', bytes)).toEqual({ size: bytes.length, hash: sha(bytes) });
    });

    it('lists every held copy with the time it last grew, for the upload sweep, which drops them all', async () => {
      const before = Date.now();
      await receive(store, 'inline-1', random(100));
      await receive(store, '0b5e0c1c-1f5e-4a53-9d4b-5c3e2e3c1a01', random(MiB));
      await store.receive('verify-2', breaksAfter(random(9 * MiB)), { offset: 0, maxBytes: 1e9 }).catch(() => {});
      const listed = await w.reopen().listHeld();
      expect(listed.map((h) => h.uploadId).sort()).toEqual(['0b5e0c1c-1f5e-4a53-9d4b-5c3e2e3c1a01', 'inline-1', 'verify-2']);
      for (const h of listed) expect(Math.abs(h.modifiedAt.getTime() - before)).toBeLessThan(60_000);
      for (const h of listed) await store.dropHeld(h.uploadId);
      expect(await held()).toEqual([]);
      expect(await blobs()).toEqual([]);
    });

    it('lists and deletes blobs', async () => {
      const all = [random(10), random(6 * MiB), random(1)];
      for (const [i, b] of all.entries()) {
        await receive(store, `u${i}`, b);
        await store.commitHeld(`u${i}`, sha(b));
      }
      const want = all.map((b) => [sha(b), b.length]).sort();
      expect((await blobs(w.reopen())).map((b) => [b.hash, b.size]).sort()).toEqual(want);
      await store.delete(sha(all[1]));
      await store.delete(sha(all[1]));
      expect(await store.exists(sha(all[1]))).toBe(false);
      expect((await blobs()).map((b) => b.hash).sort()).toEqual([sha(all[0]), sha(all[2])].sort());
    });

    it('belongs to the first database that claims it', async () => {
      await store.claim('db-1');
      await store.claim('db-1');
      await w.reopen().claim('db-1');
      for (const s of [store, w.reopen()]) {
        const err = await failure(s.claim('db-2'));
        expect(err.name).toBe('StoreOfAnotherDatabase');
        expect(err.message).toContain('db-1');
      }
    });

    it('passes its readiness check and leaves nothing behind', async () => {
      await store.check();
      await w.reopen().check();
      expect(await held()).toEqual([]);
      expect(await blobs()).toEqual([]);
    });
  });
}
