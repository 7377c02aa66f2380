// The fault suite: a blob store whose disk fills up or turns read-only mid-request (lib/testing/
// faulty-disk.ts, behind the BlobStore interface). Every failed request answers the contract's
// error body with a status the client can act on, changes nothing stored, never leaves a stored
// file without its bytes, and leaves the placeholder resumable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOwner } from '../../testing/owner';
import type { Scope } from '../../db/scope';
import { toApiError } from '../../http/to-api-error';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { createEntry } from '../create-entry';
import { deleteEntry } from '../delete-entry';
import { createFile } from './create-file';
import { deleteFile } from './delete-file';
import { receiveUpload } from './receive-upload';
import { listFiles } from './list-files';
import { listPreviousVersions } from './list-previous-versions';
import { sweepBlobs } from './sweep-blobs';
import { TEST_FILE_LIMITS as LIMITS, parseFileInput as parse, sha256 as sha } from '../../testing/files';
import { TEST_ACTOR } from '../../testing/actor';
import { expectLogged } from '../../testing/log-capture';

// Each failure here is one the store reports, and logs, by design.
expectLogged(/^blob store failure$/);

const b64 = (s: string) => Buffer.from(s).toString('base64');
const MiB = 1024 * 1024;
const bytesOf = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));

/** What a client would receive for this failure: status and the contract's body. */
function answered(err: unknown) {
  const api = toApiError(err, 'req-test');
  return { status: api.status, body: api.body() };
}

describe.each(testDatabases())('a failing blob store (%s)', (database) => {
  let w: TestWorld;
  let scope: Scope;
  let entryId: string;
  let ownerId: string;

  beforeAll(async () => {
    w = await testWorld({ database });
    ownerId = (await createTestOwner(w.db.prisma, 'Acme')).id;
    scope = { owners: [ownerId], sandbox: false };
    entryId = await newEntry();
  });
  afterAll(() => w.close());

  const newEntry = async () =>
    (
      await createEntry({
        actor: TEST_ACTOR,
        db: w.db.prisma,
        target: { ownerId, sandbox: false },
        input: { folder: '', name: 'e', meta: {} },
      })
    ).entry.id;
  const create = (input: object, entry = entryId) =>
    createFile({ db: w.db.prisma, store: w.store, scope, entryId: entry, input: parse(input), limits: LIMITS });
  const placeholder = async (name: string, bytes: Buffer) =>
    (await create({ name, mime: 'application/pdf', sha256: sha(bytes), size: bytes.length })).file;
  const upload = (file: { id: string }, source: Buffer[], contentRange: string | null = null) =>
    w.db.prisma.file
      .findUniqueOrThrow({ where: { id: file.id } })
      .then((f) => receiveUpload({ db: w.db.prisma, store: w.store, file: f, source, contentRange }));
  const row = (id: string) => w.db.prisma.file.findUniqueOrThrow({ where: { id } });
  const current = async (name: string) => {
    const f = (await listFiles(w.db.prisma, entryId)).find((x) => x.name === name);
    return f && { id: f.id, stored: f.stored, previous: (await listPreviousVersions(w.db.prisma, f)).map((p) => p.id) };
  };
  const readBack = async (hash: string) => {
    const parts: Buffer[] = [];
    for await (const c of await w.store.read(hash)) parts.push(c as Buffer);
    return Buffer.concat(parts);
  };
  const storedRowsWithoutBytes = async () => {
    const rows = await w.db.prisma.file.findMany({ where: { stored: true }, select: { hash: true } });
    const missing = [];
    for (const r of rows) if (!(await w.store.exists(r.hash))) missing.push(r.hash);
    return missing;
  };
  const reset = () => w.disk.heal();

  it('a disk that fills up mid-upload: 507 insufficient_storage, the placeholder keeps its earlier offset, and resumes', async () => {
    reset();
    const bytes = bytesOf(3 * MiB + 123, 1);
    const p = await placeholder('full.pdf', bytes);
    expect(await upload(p, [bytes.subarray(0, MiB)], `bytes 0-${MiB - 1}/${bytes.length}`)).toEqual({ kind: 'partial', offset: MiB });
    w.disk.full(MiB / 2);
    const err = await upload(p, [bytes.subarray(MiB)], `bytes ${MiB}-${bytes.length - 1}/${bytes.length}`).catch((e) => e);
    const { status, body } = answered(err);
    expect(status).toBe(507);
    expect(body).toEqual({ code: 507, key: 'insufficient_storage', message: expect.any(String) });
    expect(JSON.stringify(body)).not.toContain(w.storeDir);
    expect((await row(p.id)).stored).toBe(false);
    expect(await w.store.heldSize(p.id)).toBe(MiB);
    expect(await w.store.exists(sha(bytes))).toBe(false);
    w.disk.heal();
    const done = await upload(p, [bytes.subarray(MiB)], `bytes ${MiB}-${bytes.length - 1}/${bytes.length}`);
    expect(done.kind).toBe('stored');
    expect((await readBack(sha(bytes))).equals(bytes)).toBe(true);
  });

  it('a full disk on a whole upload and on an inline create: 507, nothing stored, no row', async () => {
    reset();
    const bytes = bytesOf(2 * MiB, 2);
    const p = await placeholder('whole.pdf', bytes);
    const before = await w.db.prisma.file.count();
    const slots = await w.db.prisma.fileSlot.count();
    w.disk.full(1000);
    expect(answered(await upload(p, [bytes]).catch((e) => e)).status).toBe(507);
    expect(await w.store.heldSize(p.id)).toBe(0);
    expect((await row(p.id)).stored).toBe(false);
    const inline = await create({ name: 'inline.txt', data: b64('x'.repeat(5000)) }).catch((e) => e);
    expect(answered(inline)).toMatchObject({ status: 507, body: { key: 'insufficient_storage' } });
    expect(await w.db.prisma.file.count()).toBe(before);
    expect(await w.db.prisma.fileSlot.count()).toBe(slots);
    expect(await w.store.exists(sha('x'.repeat(5000)))).toBe(false);
    expect(await storedRowsWithoutBytes()).toEqual([]);
  });

  it('a read-only store: uploads and inline creates answer 503 storage_unavailable and change nothing', async () => {
    reset();
    const bytes = bytesOf(MiB + 7, 3);
    const p = await placeholder('ro.pdf', bytes);
    await upload(p, [bytes.subarray(0, 1000)], `bytes 0-999/${bytes.length}`);
    const before = await w.db.prisma.file.count();
    w.disk.readOnly();
    const err = await upload(p, [bytes.subarray(1000)], `bytes 1000-${bytes.length - 1}/${bytes.length}`).catch((e) => e);
    expect(answered(err)).toEqual({ status: 503, body: { code: 503, key: 'storage_unavailable', message: expect.any(String) } });
    expect(answered(await upload(p, [bytes]).catch((e) => e)).status).toBe(503);
    expect(answered(await create({ name: 'ro.txt', data: b64('read-only') }).catch((e) => e)).status).toBe(503);
    expect(await w.db.prisma.file.count()).toBe(before);
    expect(await w.store.heldSize(p.id)).toBe(1000);
    expect((await row(p.id)).stored).toBe(false);
    w.disk.heal();
    expect((await upload(p, [bytes.subarray(1000)], `bytes 1000-${bytes.length - 1}/${bytes.length}`)).kind).toBe('stored');
  });

  it('a replacement that fails on the store leaves the current version and its history as they were', async () => {
    reset();
    const v1 = (await create({ name: 'swap.xml', data: b64('<v1/>') })).file;
    const v2 = (await create({ name: 'swap.xml', data: b64('<v2/>') })).file;
    const want = { id: v2.id, stored: true, previous: [v1.id] };
    expect(await current('swap.xml')).toEqual(want);
    const v3bytes = bytesOf(MiB + 1, 4);
    const v3 = await placeholder('swap.xml', v3bytes);
    for (const fault of [() => w.disk.full(100), () => w.disk.readOnly()]) {
      w.disk.heal();
      fault();
      expect(answered(await upload(v3, [v3bytes]).catch((e) => e)).status).toBeGreaterThanOrEqual(503);
      expect(answered(await create({ name: 'swap.xml', data: b64('<v4/>') }).catch((e) => e)).status).toBeGreaterThanOrEqual(503);
      expect(await current('swap.xml')).toEqual(want);
      expect((await row(v3.id)).stored).toBe(false);
    }
    w.disk.heal();
    await upload(v3, [v3bytes]);
    expect(await current('swap.xml')).toEqual({ id: v3.id, stored: true, previous: [v2.id, v1.id] });
  });

  it('a commit the store refuses (rename fails) leaves no stored row without its bytes; the held copy finishes later', async () => {
    reset();
    const bytes = bytesOf(MiB + 3, 5);
    const p = await placeholder('commit.pdf', bytes);
    w.disk.fail(['rename'], 'EROFS');
    expect(answered(await upload(p, [bytes]).catch((e) => e)).status).toBe(503);
    expect((await row(p.id)).stored).toBe(false);
    expect(await w.store.exists(sha(bytes))).toBe(false);
    expect(await storedRowsWithoutBytes()).toEqual([]);
    // Every byte is held: an empty PUT from the end (Content-Range: bytes size-*/size) finishes it.
    expect(await w.store.heldSize(p.id)).toBe(bytes.length);
    w.disk.heal();
    expect((await upload(p, [], `bytes ${bytes.length}-*/${bytes.length}`)).kind).toBe('stored');
    expect((await readBack(sha(bytes))).equals(bytes)).toBe(true);
  });

  it('deleting files and entries on a read-only store answers (rows gone); the sweep frees the bytes once it can', async () => {
    reset();
    const f = (await create({ name: 'gone.txt', data: b64('delete me on a read-only disk') })).file;
    const other = await newEntry();
    const g = (await create({ name: 'g.txt', data: b64('an entry deleted on a read-only disk') }, other)).file;
    const pbytes = bytesOf(5000, 6);
    const p = await placeholder('held.pdf', pbytes);
    await upload(p, [pbytes.subarray(0, 100)], `bytes 0-99/5000`);
    w.disk.readOnly();
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file: f });
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file: await row(p.id) });
    await deleteEntry({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, scope, id: other });
    expect(await w.db.prisma.file.count({ where: { id: { in: [f.id, g.id, p.id] } } })).toBe(0);
    expect(await w.store.exists(f.hash)).toBe(true);
    expect(await w.store.exists(g.hash)).toBe(true);
    await expect(sweepBlobs(w.db.prisma, w.store)).rejects.toMatchObject({ code: 'EROFS' });
    expect(await w.store.exists(f.hash)).toBe(true);
    w.disk.heal();
    const swept = await sweepBlobs(w.db.prisma, w.store);
    expect(swept.freed).toBeGreaterThanOrEqual(2);
    expect(await w.store.exists(f.hash)).toBe(false);
    expect(await w.store.exists(g.hash)).toBe(false);
    expect(await storedRowsWithoutBytes()).toEqual([]);
  });
});
