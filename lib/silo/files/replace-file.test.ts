// Versions: replacement by category + key, atomic swaps, racing replacements, restore, delete.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEntry } from '../../testing/owner';
import type { Scope } from '../../db/scope';
import { ApiError } from '../../errors';
import { testWorld, type TestWorld } from '../../testing/database';
import { createFile } from './create-file';
import { deleteFile } from './delete-file';
import { receiveUpload } from './receive-upload';
import { restoreFile } from './restore-file';
import { insertPlaceholder } from './replace-file';
import { TEST_ACTOR } from '../../testing/actor';
import { isForeignKeyViolation } from '../../db/db-errors';
import { listFiles } from './list-files';
import { listPreviousVersions } from './list-previous-versions';
import { TEST_FILE_LIMITS as LIMITS, parseFileInput as parse, sha256 as sha } from '../../testing/files';

const b64 = (s: string) => Buffer.from(s).toString('base64');

let w: TestWorld;
let scope: Scope;
let entryId: string;

beforeAll(async () => {
  w = await testWorld();
  ({ scope, entryId } = await createTestEntry(w.db.prisma));
});
afterAll(() => w.close());

const upload = (input: object, id?: string) =>
  createFile({ db: w.db.prisma, store: w.store, scope, entryId, id, input: parse(input), limits: LIMITS });

describe('replacement', () => {
  it('racing replacements of one file lose no version and number them 1..n', async () => {
    const n = 10;
    const results = await Promise.all(Array.from({ length: n }, (_, i) => upload({ name: 'race.txt', data: b64(`v${i}`) })));
    const [current] = (await listFiles(w.db.prisma, entryId)).filter((f) => f.name === 'race.txt');
    const history = await listPreviousVersions(w.db.prisma, current);
    expect([current, ...history].map((f) => f.id).sort()).toEqual(results.map((r) => r.file.id).sort());
    expect([current, ...history].map((f) => f.version)).toEqual(Array.from({ length: n }, (_, i) => n - i));
  });

  it('racing PUTs of one id: one creates it, the others repeat it (same values) or answer 409 (other values)', async () => {
    const id = randomUUID();
    const same = { name: 'put.txt', data: b64('put') };
    const other = { name: 'put.txt', key: 'another slot', data: b64('put') };
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => upload(i % 2 ? other : same, id)));
    expect(results.filter((r) => r.status === 'fulfilled' && r.value.created)).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'fulfilled') expect(r.value.file).toMatchObject({ id, stored: true });
      else expect(r.reason).toMatchObject({ key: 'conflict' });
    }
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(3);
  });

  it('a key takes the place of the name; categories are separate', async () => {
    const a = await upload({ name: 'a.xml', key: 'ubl', data: b64('1') });
    const b = await upload({ name: 'b.xml', key: 'ubl', data: b64('2') });
    const c = await upload({ name: 'b.xml', category: 'format', data: b64('3') });
    expect((await listPreviousVersions(w.db.prisma, b.file)).map((f) => f.id)).toEqual([a.file.id]);
    expect(await listPreviousVersions(w.db.prisma, c.file)).toEqual([]);
  });

  it('a placeholder displaces the current file only once its bytes are stored', async () => {
    const v1 = await upload({ name: 'swap.pdf', data: b64('one') });
    const bytes = Buffer.from('two');
    const p = await upload({ name: 'swap.pdf', mime: 'application/pdf', sha256: sha(bytes), size: 3 });
    const names = async () => (await listFiles(w.db.prisma, entryId)).filter((f) => f.name === 'swap.pdf').map((f) => f.id);
    expect(await names()).toEqual([v1.file.id]);
    const wrong = receiveUpload({ db: w.db.prisma, store: w.store, file: p.file, source: [Buffer.from('bad')], contentRange: null });
    await expect(wrong).rejects.toMatchObject({ key: 'checksum_mismatch' });
    expect(await names()).toEqual([v1.file.id]);
    expect(await w.store.heldSize(p.file.id)).toBe(0);
    const ok = await receiveUpload({ db: w.db.prisma, store: w.store, file: p.file, source: [bytes], contentRange: null });
    expect(ok.kind).toBe('stored');
    expect(await names()).toEqual([p.file.id]);
  });

  it('restore makes a new current version from an earlier one; delete removes one version or the history', async () => {
    const v1 = await upload({ name: 'r.txt', data: b64('first') });
    const v2 = await upload({ name: 'r.txt', data: b64('second') });
    const v3 = await restoreFile({ db: w.db.prisma, store: w.store, version: v1.file });
    expect(v3.hash).toBe(sha('first'));
    expect((await listPreviousVersions(w.db.prisma, v3)).map((f) => f.id)).toEqual([v2.file.id, v1.file.id]);
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file: v1.file });
    expect((await listPreviousVersions(w.db.prisma, v3)).map((f) => f.id)).toEqual([v2.file.id]);
    // v1's bytes are still those of v3: not freed
    expect(await w.store.exists(sha('first'))).toBe(true);
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file: v3 });
    expect(await w.db.prisma.file.count({ where: { id: { in: [v2.file.id, v3.id] } } })).toBe(0);
    expect(await w.store.exists(sha('first'))).toBe(false);
    expect(await w.store.exists(sha('second'))).toBe(false);
  });

  it('restoring a version deleted meanwhile answers 404, whether its bytes are gone or only its slot', async () => {
    const v1 = await upload({ name: 'gone.txt', data: b64(`gone ${randomUUID()}`) });
    await upload({ name: 'gone.txt', data: b64(`kept ${randomUUID()}`) });
    // The history deleted after the version was looked up: its bytes are freed with it.
    const [current] = (await listFiles(w.db.prisma, entryId)).filter((f) => f.name === 'gone.txt');
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file: current });
    await expect(restoreFile({ db: w.db.prisma, store: w.store, version: v1.file })).rejects.toMatchObject({ key: 'not_found' });
    // Only the slot gone (the version row and bytes kept, as a racing delete leaves them for a moment).
    const w1 = await upload({ name: 'slot.txt', data: b64('slot bytes') });
    await w.db.prisma.$executeRaw`ALTER TABLE file_slots DISABLE TRIGGER ALL`;
    await w.db.prisma.$executeRaw`DELETE FROM file_slots WHERE id = ${w1.file.slotId}::uuid`;
    await w.db.prisma.$executeRaw`ALTER TABLE file_slots ENABLE TRIGGER ALL`;
    await expect(restoreFile({ db: w.db.prisma, store: w.store, version: w1.file })).rejects.toMatchObject({ key: 'not_found' });
  });

  it('a placeholder and its slot are made in one statement; an entry deleted meanwhile is a foreign-key miss', async () => {
    const row = {
      id: randomUUID(),
      entryId,
      name: 'p.xml',
      category: 'format',
      key: null,
      desc: '',
      mime: 'application/xml',
      size: 3n,
      hash: sha('abc'),
      embeddable: false,
      private: false,
      urlNonce: 'n',
      meta: {},
      createdBy: null,
      restoredFrom: null,
      uploadExpiresAt: new Date(Date.now() + 60_000),
    };
    const { ownerId } = await w.db.prisma.entry.findUniqueOrThrow({ where: { id: entryId } });
    const event = { actor: TEST_ACTOR, chain: { ownerId, sandbox: false } };
    const placeholder = await insertPlaceholder(w.db.prisma, row, event);
    expect([placeholder.stored, placeholder.version]).toEqual([false, null]);
    const again = await insertPlaceholder(w.db.prisma, { ...row, id: randomUUID() }, event);
    expect(again.slotId).toBe(placeholder.slotId); // the same identity, the same slot
    const err = await insertPlaceholder(w.db.prisma, { ...row, id: randomUUID(), entryId: randomUUID() }, event).catch((e) => e);
    expect(isForeignKeyViolation(err)).toBe(true);
  });

  it('identical bytes are stored once and freed only when the last reference goes', async () => {
    const a = await upload({ name: 'dup1', data: b64('same bytes') });
    const b = await upload({ name: 'dup2', data: b64('same bytes') });
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file: a.file });
    expect(await w.store.exists(sha('same bytes'))).toBe(true);
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file: b.file });
    expect(await w.store.exists(sha('same bytes'))).toBe(false);
  });

  it('PUT ids: the same request is a repeat; other values conflict', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    expect((await upload({ name: 'p.txt', data: b64('x') }, id)).created).toBe(true);
    expect((await upload({ name: 'p.txt', data: b64('x') }, id)).created).toBe(false);
    await expect(upload({ name: 'p.txt', data: b64('y') }, id)).rejects.toBeInstanceOf(ApiError);
  });
});

describe('inline bytes placed before their transaction', () => {
  it('are placed again under the lock when freed before it was taken', async () => {
    // A store that loses the bytes placed outside the lock, as a racing free or the sweep would.
    let put = 0;
    let underLock = 0;
    const store = Object.create(w.store) as typeof w.store;
    store.put = async (hash, bytes) => {
      put++;
      await w.store.put(hash, bytes);
      await w.store.delete(hash);
    };
    store.commitHeld = async (uploadId, hash) => {
      underLock++;
      await w.store.commitHeld(uploadId, hash);
    };
    const bytes = `freed ${randomUUID()}`;
    const { file } = await createFile({
      db: w.db.prisma,
      store,
      scope,
      entryId,
      input: parse({ name: 'freed.txt', data: b64(bytes) }),
      limits: LIMITS,
    });
    expect([put, underLock]).toEqual([1, 1]); // put outside, lost, placed again under the lock
    expect(file.stored).toBe(true);
    const read = await w.store.read(file.hash);
    expect(Buffer.concat(await read.toArray()).toString()).toBe(bytes);
  });

  it('are written again when identical bytes are stored already (no timing tells), and kept once', async () => {
    let placed = 0;
    const store = Object.create(w.store) as typeof w.store;
    store.put = async (hash, bytes) => {
      placed++;
      await w.store.put(hash, bytes);
    };
    const data = b64(`twice ${randomUUID()}`);
    const make = (name: string) => createFile({ db: w.db.prisma, store, scope, entryId, input: parse({ name, data }), limits: LIMITS });
    await make('one.txt');
    await make('two.txt');
    // Skipping the second write would tell its caller that someone stored these bytes (dedup-timing.slow.test.ts).
    expect(placed).toBe(2);
    const hash = sha(Buffer.from(data, 'base64'));
    const copies = [];
    for await (const b of w.store.listBlobs()) if (b.hash === hash) copies.push(b);
    expect(copies).toHaveLength(1);
  });
});
