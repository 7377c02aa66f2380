// A legal hold in the database (migration legal_hold_guard, docs/api.md, Retention): a DELETE of a
// held entry, of any of its versions or placeholders, or of its workspace, is refused by triggers,
// as psql would send it (replica mode and TRUNCATE too); lifting the hold is an ordinary UPDATE,
// after which the same DELETE goes. The application refuses first (409 legal_hold, recorded); when
// the trigger is what refuses (the seatbelt), the caller still gets 409 legal_hold, not a 500.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { parseFileInput as parse, sha256, TEST_FILE_LIMITS } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { deleteOwner } from '../../access/delete-owner';
import { deleteEntry } from '../delete-entry';
import { createFile } from '../files/create-file';
import { deleteFile } from '../files/delete-file';
import { restoreFile } from '../files/restore-file';
import { refusedByDatabase } from '../../db/db-errors';
import { setLegalHold } from './set-legal-hold';

const HELD = /under a legal hold/;

describe.each(testDatabases())('a legal hold in the database (%s)', (database) => {
  let w: TestWorld;
  let ownerId: string;
  let scope: Scope;

  beforeAll(async () => {
    w = await testWorld({ database });
    ownerId = (await createTestOwner(w.db.prisma, `hold-db-${database}`)).id;
    scope = { owners: [ownerId], sandbox: false };
  });
  afterAll(() => w.close());

  const db = () => w.db.prisma;
  const sql = (text: string) => w.db.sql.exec(text);
  const hold = (entryId: string, on: boolean, s = scope) =>
    setLegalHold({ db: db(), store: w.store, scope: s, entryId, input: { hold: on, reason: 'audit 2026' }, actor: TEST_ACTOR });

  /** A held entry of `owner` with two versions of a file and a placeholder. */
  async function heldEntry(owner = ownerId) {
    const s = { owners: [owner], sandbox: false };
    const entryId = (await db().entry.create({ data: { id: randomUUID(), ownerId: owner, sandbox: false, name: 'held' } })).id;
    const put = async (name: string, data: string) =>
      (
        await createFile({
          db: db(),
          store: w.store,
          scope: s,
          entryId,
          input: parse({ name, data: Buffer.from(`${data} ${entryId}`).toString('base64') }),
          limits: TEST_FILE_LIMITS,
        })
      ).file;
    const v1 = await put('inv.xml', 'one');
    const v2 = await put('inv.xml', 'two');
    const bytes = Buffer.from(`placeholder ${entryId}`);
    const { file: placeholder } = await createFile({
      db: db(),
      store: w.store,
      scope: s,
      entryId,
      input: parse({ name: 'up.bin', mime: 'application/octet-stream', size: bytes.length, sha256: sha256(bytes) }),
      limits: TEST_FILE_LIMITS,
    });
    await hold(entryId, true, s);
    return { entryId, v1, v2, placeholder };
  }

  it('refuses raw DELETE of a held version, placeholder, entry or workspace, TRUNCATE, and replica mode', async () => {
    const owner = (await createTestOwner(db(), `held-owner-${database}`)).id;
    const { entryId, v1, v2, placeholder } = await heldEntry(owner);
    for (const id of [v1.id, v2.id, placeholder.id]) await expect(sql(`DELETE FROM files WHERE id = '${id}'`)).rejects.toThrow(HELD);
    await expect(sql(`DELETE FROM files WHERE entry_id = '${entryId}'`)).rejects.toThrow(HELD);
    await expect(sql(`DELETE FROM file_slots WHERE entry_id = '${entryId}'`)).rejects.toThrow(HELD); // its cascade reaches files
    await expect(sql(`DELETE FROM entries WHERE id = '${entryId}'`)).rejects.toThrow(HELD);
    await expect(sql(`DELETE FROM owners WHERE id = '${owner}'`)).rejects.toThrow(HELD);
    await expect(sql('TRUNCATE files CASCADE')).rejects.toThrow(HELD);
    await expect(sql('TRUNCATE entries CASCADE')).rejects.toThrow(HELD);
    await expect(
      sql(`BEGIN; SET LOCAL session_replication_role = replica; DELETE FROM entries WHERE id = '${entryId}'; COMMIT;`),
    ).rejects.toThrow(HELD);
    await sql('ROLLBACK').catch(() => {});
    // a copy of the hold unset by hand does not free the version: the entry's column decides
    await sql(`UPDATE files SET legal_hold = false WHERE id = '${v1.id}'`);
    await expect(sql(`DELETE FROM files WHERE id = '${v1.id}'`)).rejects.toThrow(HELD);
    expect(await db().file.count({ where: { entryId } })).toBe(3);
    expect(await db().owner.count({ where: { id: owner } })).toBe(1);
    // lifting the hold is an ordinary UPDATE; then the same DELETE goes
    await sql(`UPDATE entries SET legal_hold = false WHERE id = '${entryId}'`);
    await sql(`DELETE FROM files WHERE id = '${v1.id}'`);
    await sql(`DELETE FROM owners WHERE id = '${owner}'`);
    expect(await db().file.count({ where: { entryId } })).toBe(0);
  });

  it('the API still refuses first and records it; lifted through the API, the deletes go', async () => {
    const { entryId, v1, v2 } = await heldEntry();
    for (const del of [
      () => deleteFile({ db: db(), store: w.store, file: v1, actor: TEST_ACTOR, bypassGovernance: true }),
      () => deleteFile({ db: db(), store: w.store, file: v2, actor: TEST_ACTOR }),
      () => deleteEntry({ db: db(), store: w.store, scope, id: entryId, actor: TEST_ACTOR, bypassGovernance: true }),
    ])
      await expect(del()).rejects.toMatchObject({ status: 409, key: 'legal_hold' });
    await expect(deleteOwner({ db: db(), id: ownerId, actor: TEST_ACTOR, bypassGovernance: true })).rejects.toMatchObject({
      status: 409,
      key: 'legal_hold',
    });
    // adding versions stays allowed: a restore of the earlier one is a new version, held too
    const restored = await restoreFile({ db: db(), store: w.store, version: v1, actor: null });
    expect(restored.legalHold).toBe(true);
    const types = (await db().event.findMany({ where: { entryId }, orderBy: { seq: 'asc' } })).map((e) => e.type);
    expect(types.filter((t) => t.endsWith('delete_refused'))).toEqual([
      'file.delete_refused',
      'file.delete_refused',
      'entry.delete_refused',
    ]);
    await hold(entryId, false);
    expect((await db().event.findFirst({ where: { entryId }, orderBy: { seq: 'desc' } }))?.type).toBe('legal_hold.cleared');
    await deleteEntry({ db: db(), store: w.store, scope, id: entryId, actor: TEST_ACTOR });
    expect(await db().entry.count({ where: { id: entryId } })).toBe(0);
  });

  it('a refusal by the trigger itself (a race past the guard) answers 409 legal_hold or retained, not a 500', async () => {
    // The guard's locks leave no such race to provoke: the mapping is shown on the errors each
    // database really sends, from a raw statement and from a Prisma model delete (delete-entry.ts).
    const { entryId, v1 } = await heldEntry();
    const refusal = (run: () => Promise<unknown>) =>
      run()
        .then(
          () => 'deleted',
          (err) => refusedByDatabase(err),
        )
        .catch((err) => err);
    const raw = await refusal(() => db().$transaction((tx) => tx.$executeRaw`DELETE FROM files WHERE id = ${v1.id}::uuid`));
    expect(raw).toMatchObject({ status: 409, key: 'legal_hold' });
    expect(await refusal(() => db().entry.deleteMany({ where: { id: entryId } }))).toMatchObject({ status: 409, key: 'legal_hold' });
    const other = (await db().entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: 'c' } })).id;
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await createFile({
      db: db(),
      store: w.store,
      scope,
      entryId: other,
      input: parse({
        name: 'c.txt',
        data: Buffer.from(`c ${other}`).toString('base64'),
        retain_until: until,
        retention_mode: 'compliance',
      }),
      limits: TEST_FILE_LIMITS,
    });
    expect(await refusal(() => db().$executeRaw`DELETE FROM entries WHERE id = ${other}::uuid`)).toMatchObject({
      status: 409,
      key: 'retained',
    });
    // anything else passes as it is
    const gone = await refusal(() => db().$executeRaw`DELETE FROM no_such_table`);
    expect(gone).not.toMatchObject({ status: 409 });
    expect(await db().file.count({ where: { entryId: { in: [entryId, other] } } })).toBe(4);
  });
});
