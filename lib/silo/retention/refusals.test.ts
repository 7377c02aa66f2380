// What a delete may not take (docs/api.md, Retention), as a matrix: governance, compliance, a legal
// hold and an expired date × delete an earlier version, a file with its history, an entry, the
// sweep, and raw SQL; with and without an administrator's override. Every refusal is recorded and
// committed; an override is recorded as retention.bypassed; compliance holds against psql.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { File } from '../../db/generated/client';
import type { Scope } from '../../db/scope';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { parseFileInput as parse, TEST_FILE_LIMITS } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { deleteEntry } from '../delete-entry';
import { createFile } from '../files/create-file';
import { deleteFile } from '../files/delete-file';
import { sweepBlobs } from '../files/sweep-blobs';
import { setLegalHold } from './set-legal-hold';

type Kind = 'governance' | 'compliance' | 'hold' | 'expired';
const KINDS: Kind[] = ['governance', 'compliance', 'hold', 'expired'];
const FUTURE = () => new Date(Date.now() + 10 * 365 * 86_400_000).toISOString();

describe.each(testDatabases())('refusals (%s)', (database) => {
  let w: TestWorld;
  let ownerId: string;
  let scope: Scope;

  beforeAll(async () => {
    w = await testWorld({ database });
    ownerId = (await createTestOwner(w.db.prisma, `refuse-${database}`)).id;
    scope = { owners: [ownerId], sandbox: false };
  });
  afterAll(() => w.close());

  const db = () => w.db.prisma;
  const sql = (text: string) => w.db.sql.exec(text);

  /** An entry with a file of two versions, both `kind` (the earlier one and the current one). */
  async function made(kind: Kind, owner = ownerId): Promise<{ entryId: string; earlier: File; current: File }> {
    const entryId = (await db().entry.create({ data: { id: randomUUID(), ownerId: owner, sandbox: false, name: kind } })).id;
    const asked = kind === 'governance' || kind === 'compliance' ? { retain_until: FUTURE(), retention_mode: kind } : {};
    const version = async (data: string) =>
      (
        await createFile({
          db: db(),
          store: w.store,
          scope: { owners: [owner], sandbox: false },
          entryId,
          input: parse({ name: 'inv.xml', data: Buffer.from(`${kind} ${data} ${entryId}`).toString('base64'), ...asked }),
          limits: TEST_FILE_LIMITS,
        })
      ).file;
    const earlier = await version('1');
    const current = await version('2');
    if (kind === 'expired')
      await sql(`UPDATE files SET retain_until = now() - interval '1 day', retention_mode = 'compliance' WHERE entry_id = '${entryId}'`);
    if (kind === 'hold')
      await setLegalHold({ db: db(), store: w.store, scope, entryId, input: { hold: true, reason: 'audit' }, actor: TEST_ACTOR });
    return { entryId, earlier, current };
  }

  const lastEvent = async (entryId: string) => (await db().event.findFirst({ where: { entryId }, orderBy: { seq: 'desc' } }))?.type;
  const exists = async (id: string) => !!(await db().file.findUnique({ where: { id } }));

  const expected = (kind: Kind, bypass: boolean) =>
    kind === 'expired' || (kind === 'governance' && bypass) ? 'deleted' : kind === 'hold' ? 'legal_hold' : 'retained';

  for (const kind of KINDS)
    for (const bypass of [false, true]) {
      it(`${kind}, ${bypass ? 'with' : 'without'} the override: version, file, entry`, async () => {
        const want = expected(kind, bypass);
        const { entryId, earlier, current } = await made(kind);
        const attempt = (p: Promise<unknown>) =>
          p.then(
            () => 'deleted',
            (err) => (err as { key?: string }).key ?? String(err),
          );
        // an earlier version alone
        expect(await attempt(deleteFile({ db: db(), store: w.store, file: earlier, actor: TEST_ACTOR, bypassGovernance: bypass }))).toBe(
          want,
        );
        expect(await exists(earlier.id)).toBe(want !== 'deleted');
        expect(await lastEvent(entryId)).toBe(want === 'deleted' ? 'file.deleted' : 'file.delete_refused');
        if (want === 'deleted' && kind === 'governance') {
          const bypassed = await db().event.findFirst({ where: { entryId, type: 'retention.bypassed' } });
          expect(bypassed?.data).toEqual({ versions: [{ id: earlier.id, retain_until: earlier.retainUntil?.toISOString() }] });
        }
        // the current file with its history
        expect(await attempt(deleteFile({ db: db(), store: w.store, file: current, actor: TEST_ACTOR, bypassGovernance: bypass }))).toBe(
          want,
        );
        expect(await exists(current.id)).toBe(want !== 'deleted');
        if (want !== 'deleted') {
          const refused = await db().event.findFirst({ where: { entryId, type: 'file.delete_refused' }, orderBy: { seq: 'desc' } });
          expect(refused?.data).toMatchObject({ reason: want });
          // the entry, holding them
          expect(
            await attempt(deleteEntry({ db: db(), store: w.store, scope, id: entryId, actor: TEST_ACTOR, bypassGovernance: bypass })),
          ).toBe(want);
          expect(await lastEvent(entryId)).toBe('entry.delete_refused');
          expect(await db().entry.count({ where: { id: entryId } })).toBe(1);
        }
        // the message says until when
        if (want === 'retained')
          await expect(deleteFile({ db: db(), store: w.store, file: current, actor: TEST_ACTOR })).rejects.toThrow(
            current.retainUntil?.toISOString() as string,
          );
      });
    }

  it('refuses the delete of an empty entry under a legal hold, and allows it once lifted', async () => {
    const entryId = (await db().entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: 'empty' } })).id;
    const hold = (on: boolean) =>
      setLegalHold({ db: db(), store: w.store, scope, entryId, input: { hold: on, reason: 'r' }, actor: TEST_ACTOR });
    expect(await hold(true)).toEqual({ entry_id: entryId, hold: true, reason: 'r' });
    await expect(
      deleteEntry({ db: db(), store: w.store, scope, id: entryId, actor: TEST_ACTOR, bypassGovernance: true }),
    ).rejects.toMatchObject({
      status: 409,
      key: 'legal_hold',
    });
    await hold(false);
    await hold(false); // nothing changes: no record
    await deleteEntry({ db: db(), store: w.store, scope, id: entryId, actor: TEST_ACTOR });
    const types = (await db().event.findMany({ where: { entryId }, orderBy: { seq: 'asc' } })).map((e) => e.type);
    expect(types).toEqual(['legal_hold.set', 'entry.delete_refused', 'legal_hold.cleared', 'entry.deleted']);
  });

  it('a version stored in a held entry shows the hold; the sweep frees no retained or held blob', async () => {
    const { entryId, current } = await made('hold');
    const later = await createFile({
      db: db(),
      store: w.store,
      scope,
      entryId,
      input: parse({ name: 'new.txt', data: 'bmV3' }),
      limits: TEST_FILE_LIMITS,
    });
    expect(later.file.legalHold).toBe(true);
    const gov = await made('governance');
    const comp = await made('compliance');
    await sweepBlobs(db(), w.store);
    for (const f of [current, later.file, gov.current, comp.current]) expect(await w.store.exists(f.hash)).toBe(true);
  });

  it('compliance holds against raw SQL: DELETE of the version, its entry or workspace, a shorter or weaker UPDATE, TRUNCATE, replica mode', async () => {
    // a workspace of its own: the others here hold entries under a legal hold, refused first (hold-in-database.test.ts)
    const owner = (await createTestOwner(db(), `compliance-${database}`)).id;
    const { entryId, current } = await made('compliance', owner);
    const refused = /compliance retention/;
    await expect(sql(`DELETE FROM files WHERE id = '${current.id}'`)).rejects.toThrow(refused);
    await expect(sql(`UPDATE files SET retain_until = retain_until - interval '1 second' WHERE id = '${current.id}'`)).rejects.toThrow(
      refused,
    );
    await expect(sql(`UPDATE files SET retention_mode = 'governance' WHERE id = '${current.id}'`)).rejects.toThrow(refused);
    await expect(sql(`UPDATE files SET retain_until = NULL, retention_mode = NULL WHERE id = '${current.id}'`)).rejects.toThrow(refused);
    await expect(sql(`UPDATE files SET hash = repeat('0', 64) WHERE id = '${current.id}'`)).rejects.toThrow(refused);
    await expect(sql(`DELETE FROM entries WHERE id = '${entryId}'`)).rejects.toThrow(refused);
    await expect(sql(`DELETE FROM owners WHERE id = '${owner}'`)).rejects.toThrow(refused);
    await expect(sql('TRUNCATE files CASCADE')).rejects.toThrow(refused);
    await expect(
      sql(`BEGIN; SET LOCAL session_replication_role = replica; DELETE FROM files WHERE id = '${current.id}'; COMMIT;`),
    ).rejects.toThrow(refused);
    await sql('ROLLBACK').catch(() => {});
    // what may change: desc, meta, flags; a longer date
    await sql(`UPDATE files SET "desc" = 'edited', retain_until = retain_until + interval '1 day' WHERE id = '${current.id}'`);
    const after = await db().file.findUniqueOrThrow({ where: { id: current.id } });
    expect(after.desc).toBe('edited');
    expect(after.retainUntil?.getTime()).toBe((current.retainUntil as Date).getTime() + 86_400_000);
    expect(await db().owner.count({ where: { id: owner } })).toBe(1);
  });
});
