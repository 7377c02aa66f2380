// The upload lease (one upload per placeholder across instances) and what it protects: held bytes
// against deletes and the sweep, a placeholder against an inline completion racing its upload.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { placeholderMaker } from '../../testing/owner';
import type { Db } from '../../db/client';
import type { Scope } from '../../db/scope';
import { testWorld, type TestWorld } from '../../testing/database';
import { deleteEntry } from '../delete-entry';
import { createFile } from './create-file';
import { deleteFile } from './delete-file';
import { receiveUpload } from './receive-upload';
import { sweepUploads } from './sweep-uploads';
import { acquireUploadLease, isUploadLeased, LEASE_MS, releaseUploadLease, renewUploadLease, withUploadLease } from './upload-lock';
import { uploadProgress } from './upload-window';
import { paused, readAll, takeOver } from '../../testing/upload-sources';
import { TEST_FILE_LIMITS as LIMITS, parseFileInput as parse, sha256 as sha } from '../../testing/files';
import { TEST_ACTOR } from '../../testing/actor';

let w: TestWorld;
let scope: Scope;
let placeholder: Awaited<ReturnType<typeof placeholderMaker>>['placeholder'];

beforeAll(async () => {
  w = await testWorld();
  ({ scope, placeholder } = await placeholderMaker(w.db.prisma, w.store));
});
afterAll(() => w.close());

/**
 * The client, watched: `foundGone` resolves once a renewal of the lease on `fileId` has found the
 * file gone (its look-up for the file, made only when the renewal's UPDATE matched nothing,
 * answered none) and the renewal's caller has had its turn to note it.
 */
function watchingRenewals(db: Db, fileId: string) {
  let found!: () => void;
  const foundGone = new Promise<void>((r) => (found = r));
  const file = new Proxy(db.file, {
    get(model, key) {
      const f = Reflect.get(model, key);
      if (key !== 'findUnique') return f;
      return (args: { where: { id?: string }; select?: { id?: boolean } }) => {
        const got = f.call(model, args);
        if (args.where.id === fileId && args.select?.id)
          void got.then(
            (row: unknown) => row === null && setImmediate(found),
            () => {},
          );
        return got;
      };
    },
  });
  const watched = new Proxy(db, { get: (target, key) => (key === 'file' ? file : Reflect.get(target, key)) });
  return { db: watched, foundGone };
}

describe('upload lease', () => {
  it('one holder at a time; released at once; a lapsed lease is taken over and its old holder knows', async () => {
    const { file } = await placeholder(Buffer.from('lease'));
    const db = w.db.prisma;
    const a = await acquireUploadLease(db, file.id, 1000);
    const busy = await acquireUploadLease(db, file.id, 1000).catch((err) => err);
    expect(busy).toMatchObject({ key: 'upload_in_progress', status: 409 });
    // Retry-After: the seconds until the lease lapses unless renewed, at least 1.
    const retryAfter = Number(busy.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(LEASE_MS / 1000);
    expect(await isUploadLeased(db, file.id)).toBe(true);
    expect(await renewUploadLease(db, a)).toBe('held');
    await releaseUploadLease(db, a);
    expect(await isUploadLeased(db, file.id)).toBe(false);
    const b = await acquireUploadLease(db, file.id, 1000);
    // An instance that died: its lease lapses and the next upload takes it.
    await db.$executeRaw`UPDATE upload_leases SET expires_at = now() - interval '1 second' WHERE file_id = ${file.id}::uuid`;
    expect(await isUploadLeased(db, file.id)).toBe(false);
    const c = await acquireUploadLease(db, file.id, 1000);
    expect(c.generation).toBeGreaterThan(b.generation);
    expect(await renewUploadLease(db, b)).toBe('taken');
    await releaseUploadLease(db, b); // a no-op: not b's any more
    expect(await isUploadLeased(db, file.id)).toBe(true);
    await releaseUploadLease(db, c);
  });

  it('is renewed while its upload runs, even when no byte arrives for a while', async () => {
    const { file } = await placeholder(Buffer.from('renew'));
    const expiry = async () => (await w.db.prisma.uploadLease.findUniqueOrThrow({ where: { fileId: file.id } })).expiresAt.getTime();
    // The renewals' timer on a fake clock (setInterval only: the database's timers stay real).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      await withUploadLease(w.db.prisma, file.id, 100, async () => {
        const first = await expiry();
        // renewed every idleMs / 2: not before 50 ms, then at every 50 ms
        await vi.advanceTimersByTimeAsync(49);
        expect(await expiry()).toBe(first);
        await vi.advanceTimersByTimeAsync(1);
        await vi.waitFor(async () => expect(await expiry()).toBeGreaterThan(first));
        const second = await expiry();
        await vi.advanceTimersByTimeAsync(50);
        await vi.waitFor(async () => expect(await expiry()).toBeGreaterThan(second));
      });
    } finally {
      vi.useRealTimers();
    }
    expect(await isUploadLeased(w.db.prisma, file.id)).toBe(false);
  });

  it('lapses within LEASE_MS of its last renewal: a holder that died frees the upload within seconds', async () => {
    const { file } = await placeholder(Buffer.from('short'));
    const lease = await acquireUploadLease(w.db.prisma, file.id, 60_000);
    const row = await w.db.prisma.uploadLease.findUniqueOrThrow({ where: { fileId: file.id } });
    expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(LEASE_MS + 1000);
    expect(LEASE_MS).toBeLessThanOrEqual(10_000);
    await releaseUploadLease(w.db.prisma, lease);
  });

  it('an upload taking over a lapsed lease resumes at the held offset; the stalled holder can neither add bytes nor complete', async () => {
    const bytes = randomBytes(3000);
    const { file } = await placeholder(bytes);
    const db = w.db.prisma;
    await receiveUpload({ db, store: w.store, file, source: [bytes.subarray(0, 1000)], contentRange: 'bytes 0-999/3000' });
    // A continues at 1000, sends some bytes, then stalls past its lease.
    const a = paused(bytes.subarray(1000, 1500), bytes.subarray(1500));
    const stalled = receiveUpload({ db, store: w.store, file, source: a.source, contentRange: 'bytes 1000-2999/3000' });
    stalled.catch(() => {});
    await a.sending;
    // B: HEAD's offset (at least the bytes held before A began: nothing durable is received twice).
    const offset = (await uploadProgress(db, w.store, file)).offset;
    expect(offset).toBeGreaterThanOrEqual(1000);
    const b = paused(bytes.subarray(offset, offset + 10), bytes.subarray(offset + 10));
    const resumed = takeOver(db, file.id, () =>
      receiveUpload({ db, store: w.store, file, source: b.source, contentRange: `bytes ${offset}-2999/3000` }),
    );
    await b.sending;
    // A wakes up and sends the rest: its bytes never reach B's held copy, and it cannot complete.
    a.go();
    const refused = await stalled.catch((err) => err);
    expect(refused).toMatchObject({ key: 'upload_in_progress', status: 409 });
    expect(Number(refused.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    b.go();
    const done = await resumed;
    expect(done.kind).toBe('stored');
    const stored = await w.db.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(stored.stored).toBe(true);
    expect(await readAll(await w.store.read(sha(bytes)))).toEqual(bytes);
  });

  it('a lease on a deleted file is refused with 404', async () => {
    const { file } = await placeholder(Buffer.from('gone'));
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file });
    await expect(acquireUploadLease(w.db.prisma, file.id, 1000)).rejects.toMatchObject({ key: 'not_found' });
  });
});

describe('delete during an upload', () => {
  for (const what of ['file', 'entry'] as const) {
    it(`deleting the ${what} keeps the held bytes for the upload, which answers 404 and drops them`, async () => {
      const bytes = Buffer.alloc(3000, 7);
      const { file, entryId } = await placeholder(bytes);
      const p = paused(bytes.subarray(0, 1000), bytes.subarray(1000));
      const upload = receiveUpload({ db: w.db.prisma, store: w.store, file, source: p.source, contentRange: null });
      upload.catch(() => {});
      await p.sending;
      if (what === 'file') await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file });
      else await deleteEntry({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, scope, id: entryId });
      expect((await w.store.listHeld()).map((h) => h.uploadId)).toContain(file.id);
      // The sweep leaves them too: the lease is live.
      await sweepUploads(w.db.prisma, w.store);
      expect((await w.store.listHeld()).map((h) => h.uploadId)).toContain(file.id);
      p.go();
      await expect(upload).rejects.toMatchObject({ key: 'not_found', status: 404 });
      expect(await w.store.heldSize(file.id)).toBe(0);
      expect(await isUploadLeased(w.db.prisma, file.id)).toBe(false);
      expect(await w.store.exists(sha(bytes))).toBe(false);
    });
  }

  it('a running upload learns of the delete at its next renewal and stops reading', async () => {
    const bytes = Buffer.alloc(3000, 6);
    const { file } = await placeholder(bytes);
    const renewals = watchingRenewals(w.db.prisma, file.id);
    let asked = 0;
    let reading!: () => void;
    const started = new Promise<void>((r) => (reading = r));
    let deleted!: () => void;
    const gate = new Promise<void>((r) => (deleted = r));
    async function* source() {
      asked++;
      reading();
      yield bytes.subarray(0, 1000);
      await gate;
      await renewals.foundGone; // a renewal (every 50 ms) found the file gone
      asked++;
      yield bytes.subarray(1000, 2000);
      asked++;
      yield bytes.subarray(2000);
    }
    const upload = receiveUpload({ db: renewals.db, store: w.store, file, source: source(), contentRange: null, idleMs: 100 });
    upload.catch(() => {});
    await started;
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file });
    deleted();
    await expect(upload).rejects.toMatchObject({ key: 'not_found' });
    expect(asked).toBe(2);
    expect(await w.store.heldSize(file.id)).toBe(0);
  });

  it('a delete with no upload running drops the held bytes', async () => {
    const bytes = Buffer.alloc(3000, 8);
    const { file } = await placeholder(bytes);
    await receiveUpload({ db: w.db.prisma, store: w.store, file, source: [bytes.subarray(0, 1000)], contentRange: 'bytes 0-999/3000' });
    expect(await w.store.heldSize(file.id)).toBe(1000);
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file });
    expect(await w.store.heldSize(file.id)).toBe(0);
  });
});

describe('inline completion and upload of one placeholder', () => {
  /** The placeholder's request repeated with its bytes inline. */
  const completeInline = (entryId: string, id: string, input: object, bytes: Buffer) =>
    createFile({
      db: w.db.prisma,
      store: w.store,
      scope,
      entryId,
      id,
      input: parse({ ...input, data: bytes.toString('base64') }),
      limits: LIMITS,
    });

  it('while an upload holds the lease, the inline completion answers 409; after it, the same record', async () => {
    const bytes = Buffer.alloc(2000, 9);
    const id = crypto.randomUUID();
    const { file, entryId, input } = await placeholder(bytes, id);
    const inline = () => completeInline(entryId, id, input, bytes);
    const p = paused(bytes.subarray(0, 500), bytes.subarray(500));
    const upload = receiveUpload({ db: w.db.prisma, store: w.store, file, source: p.source, contentRange: null });
    await p.sending;
    await expect(inline()).rejects.toMatchObject({ key: 'upload_in_progress', status: 409 });
    p.go();
    expect((await upload).kind).toBe('stored');
    const again = await inline();
    expect(again.file).toMatchObject({ id, stored: true, version: 1 });
  });

  it('an upload arriving after the inline completion compares with the stored bytes', async () => {
    const bytes = Buffer.alloc(2000, 10);
    const id = crypto.randomUUID();
    const { file, entryId, input } = await placeholder(bytes, id);
    await receiveUpload({ db: w.db.prisma, store: w.store, file, source: [bytes.subarray(0, 700)], contentRange: 'bytes 0-699/2000' });
    const done = await completeInline(entryId, id, input, bytes);
    expect(done.file.stored).toBe(true);
    expect(await w.store.heldSize(id)).toBe(0); // the partial upload's bytes are of no use now
    // `file` is the placeholder as a route loaded it before the completion.
    expect((await receiveUpload({ db: w.db.prisma, store: w.store, file, source: [bytes], contentRange: null })).kind).toBe('stored');
    await expect(
      receiveUpload({ db: w.db.prisma, store: w.store, file, source: [Buffer.alloc(2000, 1)], contentRange: null }),
    ).rejects.toMatchObject({ key: 'conflict' });
  });
});

describe('bytes that do not fit', () => {
  it('a chunk longer than its Content-Range answers 413 and keeps what was held before it', async () => {
    const bytes = Buffer.alloc(3000, 11);
    const { file } = await placeholder(bytes);
    const put = (range: string, b: Buffer, declaredLength?: number) =>
      receiveUpload({ db: w.db.prisma, store: w.store, file, source: [b], contentRange: range, declaredLength });
    expect(await put('bytes 0-999/3000', bytes.subarray(0, 1000))).toEqual({ kind: 'partial', offset: 1000 });
    await expect(put('bytes 1000-1999/3000', bytes.subarray(1000, 2500))).rejects.toMatchObject({ key: 'too_large', status: 413 });
    expect(await w.store.heldSize(file.id)).toBe(1000);
    await expect(put('bytes 1000-1999/3000', bytes.subarray(1000, 2500), 1500)).rejects.toMatchObject({ key: 'too_large' });
    expect(await w.store.heldSize(file.id)).toBe(1000);
    expect((await put('bytes 1000-2999/3000', bytes.subarray(1000))).kind).toBe('stored');
  });

  it('bytes compared with a stored file are never written', async () => {
    const bytes = Buffer.alloc(4000, 12);
    const { file } = await placeholder(bytes);
    await receiveUpload({ db: w.db.prisma, store: w.store, file, source: [bytes], contentRange: null });
    const before = await w.store.listHeld();
    const stored = await w.db.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    let heldDuring: unknown[] = [];
    async function* watching() {
      yield bytes.subarray(0, 2000);
      heldDuring = await w.store.listHeld();
      yield bytes.subarray(2000);
    }
    expect((await receiveUpload({ db: w.db.prisma, store: w.store, file: stored, source: watching(), contentRange: null })).kind).toBe(
      'stored',
    );
    expect(heldDuring).toEqual(before);
    await expect(
      receiveUpload({ db: w.db.prisma, store: w.store, file: stored, source: [bytes, bytes], contentRange: null }),
    ).rejects.toMatchObject({ key: 'conflict' });
  });
});
