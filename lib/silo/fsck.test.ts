// fsck: every referenced blob there with the right size and bytes; unreferenced blobs and held
// copies listed; --fix frees what nothing refers to and nothing else.
import { appendFile, chmod, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withEntryWorld } from '../testing/owner';
import type { Scope } from '../db/scope';
import { testDatabases, type TestWorld } from '../testing/database';
import { createFile } from './files/create-file';
import { fsck } from './fsck';
import { TEST_FILE_LIMITS as LIMITS, parseFileInput as parse, sha256 as sha } from '../testing/files';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.each(testDatabases())('fsck (%s)', (database) => {
  let w: TestWorld;
  let scope: Scope;
  let entryId: string;
  withEntryWorld(database, (made) => ({ w, scope, entryId } = made));

  const create = async (input: object) =>
    (await createFile({ db: w.db.prisma, store: w.store, scope, entryId, input: parse(input), limits: LIMITS })).file;
  const blobFile = (hash: string) => path.join(w.storeDir, 'sha256', hash.slice(0, 2), hash);

  it('finds missing and damaged blobs, lists unreferenced blobs and held copies, and fixes only what it may', async () => {
    const intact = await create({ name: 'intact.txt', data: b64('intact') });
    const twice = await create({ name: 'twice.txt', data: b64('missing bytes') });
    await create({ name: 'twice-again.txt', data: b64('missing bytes') });
    const short = await create({ name: 'short.txt', data: b64('cut short') });
    const rotten = await create({ name: 'rotten.txt', data: b64('bit rot') });
    expect((await fsck(w.db.prisma, w.store)).bad).toEqual([]);

    await unlink(blobFile(twice.hash));
    await truncate(blobFile(short.hash), 3);
    await writeFile(blobFile(rotten.hash), 'bit ROT');
    const orphan = await w.store.receive('o', [Buffer.from('nobody refers to me')], { offset: 0, maxBytes: 100 });
    await w.store.commitHeld('o', orphan.hash);
    const live = await create({ name: 'live.pdf', mime: 'application/pdf', sha256: sha('live upload'), size: 11 });
    const expired = await create({ name: 'expired.pdf', mime: 'application/pdf', sha256: sha('expired upload'), size: 14 });
    await w.db.prisma.file.update({ where: { id: expired.id }, data: { uploadExpiresAt: new Date(Date.now() - 1000) } });
    for (const id of [live.id, expired.id]) await w.store.receive(id, [Buffer.from('part')], { offset: 0, maxBytes: 100 });

    const report = await fsck(w.db.prisma, w.store);
    expect(report.referenced.blobs).toBe(4);
    const bad = Object.fromEntries(report.bad.map((b) => [b.hash, b]));
    expect(Object.keys(bad).sort()).toEqual([twice.hash, short.hash, rotten.hash].sort());
    expect(bad[twice.hash]).toMatchObject({ problem: 'missing', files: 2, size: 13, example: { entryId } });
    expect(bad[short.hash]).toMatchObject({ problem: 'wrong_size', actual: { size: 3 }, example: { fileId: short.id, name: 'short.txt' } });
    expect(bad[rotten.hash]).toMatchObject({ problem: 'wrong_bytes', actual: { size: 7, hash: sha('bit ROT') } });
    expect(report.unreferenced.map((b) => b.hash)).toEqual([orphan.hash]);
    expect(Object.fromEntries(report.held.map((h) => [h.uploadId, h.state]))).toEqual({ [live.id]: 'uploading', [expired.id]: 'expired' });
    // --quick compares sizes only
    expect((await fsck(w.db.prisma, w.store, { verifyBytes: false })).bad.map((b) => b.problem).sort()).toEqual(['missing', 'wrong_size']);

    const fixed = await fsck(w.db.prisma, w.store, { fix: true });
    expect(fixed).toMatchObject({ freed: 1, dropped: 1 });
    expect(await w.store.exists(orphan.hash)).toBe(false);
    // damaged blobs are reported, never removed; referenced and live ones are untouched
    for (const h of [intact.hash, short.hash, rotten.hash]) expect(await w.store.exists(h)).toBe(true);
    expect(await w.store.heldSize(live.id)).toBe(4);
    const after = await fsck(w.db.prisma, w.store);
    expect(after.unreferenced).toEqual([]);
    expect(after.bad).toHaveLength(3);
  });

  it('reports a blob file that changed: made writable, a byte appended, bytes swapped at the same size (--quick: by its mode)', async () => {
    const writable = await create({ name: 'writable.txt', data: b64('made writable') });
    const appended = await create({ name: 'appended.txt', data: b64('a byte appended') });
    const swapped = await create({ name: 'swapped.txt', data: b64('same size') });
    const mine = new Set([writable, appended, swapped].map((f) => f.hash)); // the world's earlier files stay as the test above left them
    for (const f of [writable, appended, swapped]) expect((await stat(blobFile(f.hash))).mode & 0o777).toBe(0o444);
    const problems = async (verifyBytes: boolean) =>
      Object.fromEntries(
        (await fsck(w.db.prisma, w.store, { verifyBytes })).bad.filter((b) => mine.has(b.hash)).map((b) => [b.example.name, b.problem]),
      );
    expect(await problems(true)).toEqual({});

    for (const f of [writable, appended, swapped]) await chmod(blobFile(f.hash), 0o644); // chmod u+w
    await appendFile(blobFile(appended.hash), 'x');
    await writeFile(blobFile(swapped.hash), 'SAME SIZE');
    expect(await problems(true)).toEqual({ 'writable.txt': 'writable', 'appended.txt': 'wrong_size', 'swapped.txt': 'wrong_bytes' });
    // Without hashing, the same-size change is still caught by the file's mode.
    expect(await problems(false)).toEqual({ 'writable.txt': 'writable', 'appended.txt': 'wrong_size', 'swapped.txt': 'writable' });
  });
});
