import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobTooLarge } from './blob-store';
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
    await expect(store.receive('a', chunks(Buffer.alloc(60), Buffer.alloc(60)), { offset: 0, maxBytes: 100 })).rejects.toBeInstanceOf(BlobTooLarge);
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
});
