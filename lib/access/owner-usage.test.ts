// A workspace's storage used (GET /admin/v1/owners), counted by the triggers of migration
// owner_usage: after every kind of write the API makes (inline files, placeholders and uploads, new
// versions, file and entry deletes, both environments) and SQL makes (bulk inserts, deletes, a
// moved entry, a resized or unstored version), it equals the aggregate it replaced; a workspace's
// delete, refused or not, still works. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { File } from '../db/generated/client';
import { createEntry } from '../silo/create-entry';
import { deleteEntry } from '../silo/delete-entry';
import { createFile } from '../silo/files/create-file';
import { deleteFile } from '../silo/files/delete-file';
import { receiveUpload } from '../silo/files/receive-upload';
import { setLegalHold } from '../silo/retention/set-legal-hold';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { parseFileInput, SMALL_BLOB_LIMITS, sha256, TEST_FILE_LIMITS } from '../testing/files';
import { createTestOwner } from '../testing/owner';
import { bothUsages, usageDrift } from '../testing/owner-usage';
import { deleteOwner } from './delete-owner';
import { ownerUsage } from './owner-usage';

describe.each(testDatabases())('owner usage (%s)', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w.close());
  const db = () => w.db.prisma;

  const entry = async (ownerId: string, sandbox: boolean) =>
    (await createEntry({ db: db(), target: { ownerId, sandbox }, input: { folder: 'a/b', name: 'e', meta: {} }, actor: TEST_ACTOR })).entry
      .id;
  const inline = async (ownerId: string, entryId: string, name: string, text: string, small = false) =>
    (
      await createFile({
        db: db(),
        store: w.store,
        scope: { owners: [ownerId] },
        entryId,
        input: parseFileInput({ name, data: Buffer.from(text).toString('base64') }),
        limits: small ? SMALL_BLOB_LIMITS : TEST_FILE_LIMITS,
      })
    ).file;
  const placeholder = async (ownerId: string, entryId: string, name: string, bytes: Buffer) =>
    (
      await createFile({
        db: db(),
        store: w.store,
        scope: { owners: [ownerId] },
        entryId,
        input: parseFileInput({ name, mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length }),
        limits: TEST_FILE_LIMITS,
      })
    ).file;
  const upload = (file: File, bytes: Buffer) => receiveUpload({ db: db(), store: w.store, file, source: [bytes], contentRange: null });
  const removeFile = async (id: string) =>
    deleteFile({ db: db(), store: w.store, file: await db().file.findUniqueOrThrow({ where: { id } }), actor: null });

  it('equals the aggregate after inline files, uploads, new versions and deletes, in both environments', async () => {
    const a = (await createTestOwner(db(), 'usage-a')).id;
    const b = (await createTestOwner(db(), 'usage-b')).id;
    expect(await bothUsages(db(), [a, b])).toEqual({
      counted: { [a]: { entries: 0, files: 0, bytes: 0 }, [b]: { entries: 0, files: 0, bytes: 0 } },
      aggregate: { [a]: { entries: 0, files: 0, bytes: 0 }, [b]: { entries: 0, files: 0, bytes: 0 } },
    });
    const live = await entry(a, false);
    const sandbox = await entry(a, true);
    const other = await entry(b, false);
    const empty = await entry(a, false);
    await inline(a, live, 'one.txt', 'first version');
    await inline(a, live, 'one.txt', 'second, longer version'); // a new version of the same file
    await inline(a, live, 'small.txt', 'kept in the database', true);
    await inline(a, sandbox, 'sb.txt', 'sandbox bytes');
    await inline(b, other, 'b.txt', 'the neighbour');
    const waiting = await placeholder(a, live, 'up.bin', Buffer.from('uploaded later'));
    await placeholder(a, sandbox, 'never.bin', Buffer.from('never uploaded')); // a placeholder is not counted
    const after = await bothUsages(db(), [a, b]);
    expect(after.counted).toEqual(after.aggregate);
    expect(after.counted[a]).toEqual({ entries: 3, files: 4, bytes: 13 + 22 + 20 + 13 });

    expect((await upload(waiting, Buffer.from('uploaded later'))).kind).toBe('stored');
    const up = await placeholder(a, live, 'up.bin', Buffer.from('a new version by upload'));
    expect((await upload(up, Buffer.from('a new version by upload'))).kind).toBe('stored');
    const uploaded = await bothUsages(db(), [a, b]);
    expect(uploaded.counted).toEqual(uploaded.aggregate);
    expect(uploaded.counted[a]).toMatchObject({ entries: 3, files: 6 });

    // An earlier version alone, then a whole file (every version), then entries with all they hold.
    const first = await db().file.findFirstOrThrow({ where: { entryId: live, name: 'one.txt', version: 1 } });
    await removeFile(first.id);
    await removeFile(up.id);
    expect((await bothUsages(db(), [a, b])).counted[a]).toMatchObject({ entries: 3, files: 3 });
    await deleteEntry({ db: db(), store: w.store, scope: { owners: 'all' }, id: sandbox, actor: null });
    await deleteEntry({ db: db(), store: w.store, scope: { owners: 'all' }, id: empty, actor: null });
    const end = await bothUsages(db(), [a, b]);
    expect(end.counted).toEqual(end.aggregate);
    expect(end.counted[a]).toEqual({ entries: 1, files: 2, bytes: 22 + 20 });
    expect(end.counted[b]).toEqual({ entries: 1, files: 1, bytes: 13 });
    expect(await usageDrift(db())).toEqual([]);
  });

  it('follows SQL: a bulk insert, a moved entry, a resized or unstored version, bulk deletes', async () => {
    const a = (await createTestOwner(db(), 'sql-a')).id;
    const b = (await createTestOwner(db(), 'sql-b')).id;
    await w.db.sql.exec(`
      WITH e AS (
        INSERT INTO entries (id, owner_id, sandbox, key, name)
        SELECT gen_random_uuid(), '${a}', g % 3 = 0, 'K-' || g, 'n' FROM generate_series(1, 300) g RETURNING id),
      s AS (INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
        SELECT gen_random_uuid(), e.id, 'attachment', 'i.xml', 1, gen_random_uuid() FROM e RETURNING id, entry_id, current_id)
      INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce)
      SELECT s.current_id, s.entry_id, s.id, 'i.xml', 'attachment', 'application/xml', 100 + k, md5(s.id::text), k % 5 <> 0, 1, 'n'
      FROM (SELECT s.*, row_number() OVER () AS k FROM s) s`);
    expect(await usageDrift(db())).toEqual([]);
    const one = await db().entry.findFirstOrThrow({ where: { ownerId: a, sandbox: false } });
    await w.db.sql.exec(`UPDATE entries SET owner_id = '${b}', sandbox = true WHERE id = '${one.id}'`);
    await w.db.sql.exec(`UPDATE files SET size = size * 3 WHERE owner_id = '${a}' AND sandbox`);
    await w.db.sql.exec(`UPDATE files SET stored = false WHERE owner_id = '${a}' AND size % 7 = 0`);
    await w.db.sql.exec(`UPDATE files SET stored = true WHERE owner_id = '${a}' AND size % 11 = 0`);
    expect(await usageDrift(db())).toEqual([]);
    await w.db.sql.exec(`DELETE FROM files WHERE owner_id = '${a}' AND size % 2 = 0`);
    await w.db.sql.exec(`DELETE FROM entries WHERE owner_id = '${a}' AND key LIKE 'K-1%'`);
    const end = await bothUsages(db(), [a, b]);
    expect(end.counted).toEqual(end.aggregate);
    expect(end.counted[b].entries).toBe(1);
    expect(await usageDrift(db())).toEqual([]);
  });

  it('goes with its workspace; a workspace held or deleted by SQL goes (or stays) as before', async () => {
    const ownerId = (await createTestOwner(db(), 'deleted')).id;
    const held = await entry(ownerId, false);
    await inline(ownerId, held, 'h.txt', 'held');
    await inline(ownerId, await entry(ownerId, true), 's.txt', 'sandbox');
    const rows = () => db().$queryRaw<unknown[]>`SELECT 1 FROM owner_usage WHERE owner_id = ${ownerId}::uuid`;
    await setLegalHold({
      db: db(),
      store: w.store,
      scope: { owners: [ownerId] },
      entryId: held,
      input: { hold: true, reason: 'r' },
      actor: TEST_ACTOR,
    });
    await expect(deleteOwner({ db: db(), id: ownerId, actor: TEST_ACTOR, bypassGovernance: true })).rejects.toMatchObject({
      key: 'legal_hold',
    });
    await expect(w.db.sql.exec(`DELETE FROM owners WHERE id = '${ownerId}'`)).rejects.toThrow(/legal hold/);
    expect((await ownerUsage(db(), [ownerId])).get(ownerId)).toEqual({ entries: 2, files: 2, bytes: 11 });
    await setLegalHold({
      db: db(),
      store: w.store,
      scope: { owners: [ownerId] },
      entryId: held,
      input: { hold: false, reason: '' },
      actor: TEST_ACTOR,
    });
    await deleteOwner({ db: db(), id: ownerId, actor: TEST_ACTOR, bypassGovernance: false });
    expect(await rows()).toEqual([]);

    const bySql = (await createTestOwner(db(), 'by-sql')).id;
    await inline(bySql, await entry(bySql, false), 'x.txt', 'x');
    await w.db.sql.exec(`DELETE FROM owners WHERE id = '${bySql}'`);
    expect(await db().$queryRaw<unknown[]>`SELECT 1 FROM owner_usage WHERE owner_id = ${bySql}::uuid`).toEqual([]);
    expect(await usageDrift(db())).toEqual([]);
  });

  it('answers zeros for a workspace with nothing and for an unknown id', async () => {
    const none = (await createTestOwner(db(), 'nothing')).id;
    const unknown = randomUUID();
    expect(Object.fromEntries(await ownerUsage(db(), [none, unknown]))).toEqual({
      [none]: { entries: 0, files: 0, bytes: 0 },
      [unknown]: { entries: 0, files: 0, bytes: 0 },
    });
  });
});
