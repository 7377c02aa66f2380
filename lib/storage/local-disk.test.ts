import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, chown, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FaultyDisk } from '../testing/faulty-disk';
import { BlobTooLarge, storeFailure } from './blob-store';
import { LocalDiskStore } from './local-disk';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function* chunks(...parts: Buffer[]) {
  for (const p of parts) yield p;
}
async function* breaksAfter(part: Buffer) {
  yield part;
  throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}
const readAll = async (s: AsyncIterable<Buffer>) => {
  const out: Buffer[] = [];
  for await (const c of s) out.push(c);
  return Buffer.concat(out);
};

let root: string;
let store: LocalDiskStore;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'silo-disk-'));
  store = new LocalDiskStore(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('LocalDiskStore', () => {
  it('hashes while receiving and stores identical bytes once, under their hash', async () => {
    const bytes = Buffer.from('hello, invoice');
    const got = await store.receive('a', chunks(bytes.subarray(0, 5), bytes.subarray(5)), { offset: 0, maxBytes: 100 });
    expect(got).toEqual({ size: bytes.length, hash: sha(bytes) });
    await store.commitHeld('a', got.hash);
    await store.receive('b', chunks(bytes), { offset: 0, maxBytes: 100 });
    await store.commitHeld('b', got.hash);
    expect((await readAll(await store.read(got.hash))).equals(bytes)).toBe(true);
    expect(await readdir(path.join(root, 'sha256', got.hash.slice(0, 2)))).toEqual([got.hash]);
    expect(await readdir(path.join(root, 'held'))).toEqual([]);
  });

  it('reads a byte range', async () => {
    const bytes = Buffer.from('0123456789');
    const got = await store.receive('a', chunks(bytes), { offset: 0, maxBytes: 100 });
    await store.commitHeld('a', got.hash);
    expect((await readAll(await store.read(got.hash, { start: 2, end: 4 }))).toString()).toBe('234');
  });

  it('refuses past maxBytes and drops what it held', async () => {
    await expect(store.receive('a', chunks(Buffer.alloc(60), Buffer.alloc(60)), { offset: 0, maxBytes: 100 })).rejects.toBeInstanceOf(
      BlobTooLarge,
    );
    expect(await store.heldSize('a')).toBe(0);
  });

  it('keeps what arrived when the source breaks off, and resumes with one hash over all of it', async () => {
    const first = Buffer.alloc(3 * 1024 * 1024 + 17, 1);
    const rest = Buffer.alloc(1024 * 1024, 2);
    await expect(store.receive('u', breaksAfter(first), { offset: 0, maxBytes: 10e6 })).rejects.toThrow('aborted');
    expect(await store.heldSize('u')).toBe(first.length);
    const got = await store.receive('u', chunks(rest), { offset: first.length, maxBytes: 10e6 });
    expect(got).toEqual({ size: first.length + rest.length, hash: sha(Buffer.concat([first, rest])) });
  });

  it('starts over at offset 0, truncating a longer held copy', async () => {
    await store.receive('u', chunks(Buffer.alloc(1000, 7)), { offset: 0, maxBytes: 10e6 });
    const got = await store.receive('u', chunks(Buffer.from('short')), { offset: 0, maxBytes: 10e6 });
    expect(got.size).toBe(5);
    expect(await store.heldSize('u')).toBe(5);
  });

  it('deletes blobs and passes its readiness check', async () => {
    const got = await store.receive('a', chunks(Buffer.from('x')), { offset: 0, maxBytes: 10 });
    await store.commitHeld('a', got.hash);
    await store.delete(got.hash);
    expect(await store.exists(got.hash)).toBe(false);
    await store.check();
  });

  it('lists its blobs with their sizes, and knows the size of one', async () => {
    const a = await store.receive('a', chunks(Buffer.from('abc')), { offset: 0, maxBytes: 10 });
    await store.commitHeld('a', a.hash);
    const b = await store.receive('b', chunks(Buffer.alloc(0)), { offset: 0, maxBytes: 10 });
    await store.commitHeld('b', b.hash);
    await store.receive('held-only', chunks(Buffer.from('x')), { offset: 0, maxBytes: 10 });
    const listed = [];
    for await (const blob of store.listBlobs()) listed.push({ hash: blob.hash, size: blob.size });
    expect(listed.sort((x, y) => x.hash.localeCompare(y.hash))).toEqual(
      [
        { hash: a.hash, size: 3 },
        { hash: b.hash, size: 0 },
      ].sort((x, y) => x.hash.localeCompare(y.hash)),
    );
    expect(await store.blobSize(a.hash)).toBe(3);
    expect(await store.blobSize(sha(Buffer.from('absent')))).toBeUndefined();
  });

  it('too many bytes on a resume keep what was held before', async () => {
    await store.receive('u', chunks(Buffer.alloc(10, 1)), { offset: 0, maxBytes: 20 });
    await expect(store.receive('u', chunks(Buffer.alloc(15, 2)), { offset: 10, maxBytes: 20 })).rejects.toBeInstanceOf(BlobTooLarge);
    expect(await store.heldSize('u')).toBe(10);
  });
});

describe('LocalDiskStore: blob files are read-only', () => {
  const blobFile = (hash: string) => path.join(root, 'sha256', hash.slice(0, 2), hash);
  const mode = async (file: string) => (await stat(file)).mode & 0o777;

  it('places every blob 0444, by commit, by put and over bytes stored already, and frees it all the same', async () => {
    const a = await store.receive('a', chunks(Buffer.from('committed')), { offset: 0, maxBytes: 100 });
    await store.commitHeld('a', a.hash);
    const inline = Buffer.from('put inline');
    await store.put(sha(inline), inline);
    await store.receive('again', chunks(Buffer.from('committed')), { offset: 0, maxBytes: 100 });
    await store.commitHeld('again', a.hash);
    for (const h of [a.hash, sha(inline)]) {
      expect(await mode(blobFile(h))).toBe(0o444);
      expect(await store.blobWritable(h)).toBe(false);
    }
    await chmod(blobFile(a.hash), 0o644);
    expect(await store.blobWritable(a.hash)).toBe(true);
    expect(await store.blobWritable(sha(Buffer.from('absent')))).toBe(false);
    for (const h of [a.hash, sha(inline)]) {
      await store.delete(h);
      expect(await store.exists(h)).toBe(false);
    }
  });

  // Root writes whatever the mode says; the guarantee is for the unprivileged user a server runs as.
  it('an unprivileged process cannot write a stored blob, and can free it (unlink asks the directory)', async () => {
    const nobody = 65534;
    const unprivileged = process.getuid?.() === 0;
    const bytes = Buffer.from('kept as stored');
    await store.put(sha(bytes), bytes);
    const file = blobFile(sha(bytes));
    if (unprivileged) for (const p of [root, path.join(root, 'sha256'), path.dirname(file), file]) await chown(p, nobody, nobody);
    const run = (code: string) =>
      spawnSync(process.execPath, ['-e', code, file], { uid: unprivileged ? nobody : undefined, encoding: 'utf8' });
    const write = run("require('node:fs').appendFileSync(process.argv[1], 'x')");
    expect(write.stderr).toContain('EACCES');
    expect((await readFile(file)).equals(bytes)).toBe(true);
    const free = run("require('node:fs').rmSync(process.argv[1])");
    expect(free.status).toBe(0);
    expect(await store.exists(sha(bytes))).toBe(false);
  });
});

describe('LocalDiskStore.claim: one database per store', () => {
  it('records the first database, accepts it again, refuses another with the store named', async () => {
    await store.claim('db-one');
    await store.claim('db-one');
    await new LocalDiskStore(root).claim('db-one');
    const err = await new LocalDiskStore(root).claim('db-two').catch((e) => e);
    expect(err.name).toBe('StoreOfAnotherDatabase');
    expect(err.message).toContain(root);
    expect(err.message).toContain('db-one');
    expect(JSON.parse(await readFile(path.join(root, 'silo-store.json'), 'utf8')).database_id).toBe('db-one');
    expect((await readdir(root)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('of two databases claiming a new store at once, exactly one wins (x10)', async () => {
    for (let i = 0; i < 10; i++) {
      const dir = path.join(root, `race-${i}`);
      const results = await Promise.allSettled([new LocalDiskStore(dir).claim('a'), new LocalDiskStore(dir).claim('b')]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(lost.reason.name).toBe('StoreOfAnotherDatabase');
    }
  });

  it('an unreadable record is an error that says so, not a claim', async () => {
    await writeFile(path.join(root, 'silo-store.json'), '{"nope":');
    await expect(store.claim('db-one')).rejects.toThrow(/silo-store\.json is unreadable/);
  });
});

describe('LocalDiskStore on a failing disk', () => {
  let disk: FaultyDisk;
  let faulty: LocalDiskStore;
  beforeEach(() => {
    disk = new FaultyDisk();
    faulty = new LocalDiskStore(root, disk.io);
  });
  const big = Buffer.alloc(3 * 1024 * 1024 + 5, 9);

  it('a disk that fills up mid-write fails the upload and keeps no partial bytes', async () => {
    disk.full(2 * 1024 * 1024 + 100);
    const err = await faulty.receive('u', chunks(big), { offset: 0, maxBytes: 10e6 }).catch((e) => e);
    expect(err.code).toBe('ENOSPC');
    expect(storeFailure(err)).toBe('full');
    expect(await faulty.heldSize('u')).toBe(0);
    expect(await readdir(path.join(root, 'held'))).toEqual([]);
  });

  it('a short last write (the disk full by a few bytes) is an error, never a blob with a hole (x10)', async () => {
    for (let i = 0; i < 10; i++) {
      disk.heal().full(big.length - 1 - i * 1000);
      const err = await faulty.receive(`u${i}`, chunks(big), { offset: 0, maxBytes: 10e6 }).catch((e) => e);
      expect(err.code).toBe('ENOSPC');
    }
  });

  it('a full disk on a resume cuts back to what was held before, which still resumes', async () => {
    const first = big.subarray(0, 1024 * 1024);
    await faulty.receive('u', chunks(first), { offset: 0, maxBytes: 10e6 });
    disk.full(1000);
    await expect(faulty.receive('u', chunks(big.subarray(first.length)), { offset: first.length, maxBytes: 10e6 })).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    expect(await faulty.heldSize('u')).toBe(first.length);
    disk.heal();
    const got = await faulty.receive('u', chunks(big.subarray(first.length)), { offset: first.length, maxBytes: 10e6 });
    expect(got).toEqual({ size: big.length, hash: sha(big) });
  });

  it('a read-only disk refuses to receive, commit and delete, and changes nothing', async () => {
    const held = await faulty.receive('u', chunks(Buffer.from('bytes')), { offset: 0, maxBytes: 10 });
    const kept = await faulty.receive('k', chunks(Buffer.from('kept')), { offset: 0, maxBytes: 10 });
    await faulty.commitHeld('k', kept.hash);
    disk.readOnly();
    const refused = await faulty.receive('v', chunks(Buffer.from('new')), { offset: 0, maxBytes: 10 }).catch((e) => e);
    expect(refused.code).toBe('EROFS');
    expect(storeFailure(refused)).toBe('unavailable');
    await expect(faulty.commitHeld('u', held.hash)).rejects.toMatchObject({ code: 'EROFS' });
    await expect(faulty.delete(kept.hash)).rejects.toMatchObject({ code: 'EROFS' });
    await expect(faulty.check()).rejects.toMatchObject({ code: 'EROFS' });
    await faulty.delete(sha(Buffer.from('not there'))); // nothing to remove: no change, no error
    expect(await faulty.heldSize('u')).toBe(5);
    expect(await faulty.exists(held.hash)).toBe(false);
    expect(await faulty.exists(kept.hash)).toBe(true);
    disk.heal();
    await faulty.commitHeld('u', held.hash);
    expect((await readAll(await faulty.read(held.hash))).toString()).toBe('bytes');
  });

  it('a commit whose rename fails leaves the held copy writable, to resume or commit again', async () => {
    const first = Buffer.from('first half, ');
    const held = await faulty.receive('u', chunks(first), { offset: 0, maxBytes: 100 });
    disk.fail(['rename'], 'EIO');
    await expect(faulty.commitHeld('u', held.hash)).rejects.toMatchObject({ code: 'EIO' });
    disk.heal();
    expect((await stat(path.join(root, 'held', 'u'))).mode & 0o200).not.toBe(0);
    const whole = await faulty.receive('u', chunks(Buffer.from('second half')), { offset: first.length, maxBytes: 100 });
    await faulty.commitHeld('u', whole.hash);
    expect((await stat(path.join(root, 'sha256', whole.hash.slice(0, 2), whole.hash))).mode & 0o777).toBe(0o444);
  });

  it('a put on a full or read-only disk fails, leaving no blob and no held copy', async () => {
    const bytes = Buffer.alloc(64 * 1024, 5);
    disk.full(1000);
    const err = await faulty.put(sha(bytes), bytes).catch((e) => e);
    expect(err.code).toBe('ENOSPC');
    expect(await faulty.exists(sha(bytes))).toBe(false);
    expect(await readdir(path.join(root, 'held'))).toEqual([]);
    disk.heal().readOnly();
    await expect(faulty.put(sha(bytes), bytes)).rejects.toMatchObject({ code: 'EROFS' });
    expect(await faulty.exists(sha(bytes))).toBe(false);
    disk.heal();
    await faulty.put(sha(bytes), bytes);
    expect((await readAll(await faulty.read(sha(bytes)))).equals(bytes)).toBe(true);
  });

  it('a put makes its directory again if it went away since the store saw it', async () => {
    const a = Buffer.from('first');
    await faulty.put(sha(a), a);
    await rm(path.join(root, 'sha256', sha(a).slice(0, 2)), { recursive: true });
    await faulty.put(sha(a), a);
    expect(await faulty.exists(sha(a))).toBe(true);
  });

  it('a client that breaks off is not a disk failure: what arrived stays held', async () => {
    await expect(faulty.receive('u', breaksAfter(big), { offset: 0, maxBytes: 10e6 })).rejects.toThrow('aborted');
    expect(await faulty.heldSize('u')).toBe(big.length);
    expect(storeFailure(Object.assign(new Error('aborted'), { code: 'ECONNRESET', syscall: 'read' }))).toBeUndefined();
  });
});
