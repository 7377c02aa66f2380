// DELETE /admin/v1/owners/{id} and retention (docs/api.md, Retention): a workspace holding a retained
// version or a held entry is not deleted and the refusal is recorded; governance yields to the
// override, compliance and holds never; an empty or expired workspace goes with its chains.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFile } from '../silo/files/create-file';
import { setLegalHold } from '../silo/retention/set-legal-hold';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { parseFileInput as parse, TEST_FILE_LIMITS } from '../testing/files';
import { createTestOwner } from '../testing/owner';
import { listDeletedChains } from '../events/deleted-chains';
import { recordHash } from '../events/record';
import { deleteOwner } from './delete-owner';

describe.each(testDatabases())('deleteOwner (%s)', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w.close());
  const db = () => w.db.prisma;

  /** A workspace whose one entry holds a version of `kind`. */
  async function workspace(kind: 'governance' | 'compliance' | 'hold' | 'expired' | 'none') {
    const ownerId = (await createTestOwner(db(), kind)).id;
    const scope = { owners: [ownerId], sandbox: false };
    const entryId = (await db().entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: kind } })).id;
    const asked =
      kind === 'governance' || kind === 'compliance'
        ? { retain_until: new Date(Date.now() + 86_400_000).toISOString(), retention_mode: kind }
        : {};
    await createFile({
      db: db(),
      store: w.store,
      scope,
      entryId,
      input: parse({ name: 'a.xml', data: Buffer.from(`${kind} ${ownerId}`).toString('base64'), ...asked }),
      limits: TEST_FILE_LIMITS,
    });
    if (kind === 'expired')
      await w.db.sql.exec(
        `UPDATE files SET retain_until = now() - interval '1 second', retention_mode = 'compliance' WHERE entry_id = '${entryId}'`,
      );
    if (kind === 'hold')
      await setLegalHold({ db: db(), store: w.store, scope, entryId, input: { hold: true, reason: 'r' }, actor: TEST_ACTOR });
    return ownerId;
  }

  const attempt = (id: string, bypassGovernance: boolean) =>
    deleteOwner({ db: db(), id, actor: TEST_ACTOR, bypassGovernance }).then(
      () => 'deleted',
      (err) => (err as { key: string }).key,
    );

  for (const [kind, without, withOverride] of [
    ['governance', 'retained', 'deleted'],
    ['compliance', 'retained', 'retained'],
    ['hold', 'legal_hold', 'legal_hold'],
    ['expired', 'deleted', 'deleted'],
    ['none', 'deleted', 'deleted'],
  ] as const)
    it(`${kind}: ${without} without the override, ${withOverride} with it`, async () => {
      for (const [bypass, want] of [
        [false, without],
        [true, withOverride],
      ] as const) {
        const id = await workspace(kind);
        expect(await attempt(id, bypass)).toBe(want);
        expect(await db().owner.count({ where: { id } })).toBe(want === 'deleted' ? 0 : 1);
        if (want !== 'deleted') {
          const refused = await db().event.findFirst({ where: { ownerId: id, type: 'workspace.delete_refused' } });
          expect(refused?.data).toMatchObject({ reason: want });
        } else expect(await db().deletedChain.count({ where: { ownerId: id } })).toBeGreaterThan(0);
      }
    });

  it("an override leaves retention.bypassed as the live chain's last record, kept and checkable once the workspace is gone", async () => {
    const id = await workspace('governance');
    const scope = { owners: [id], sandbox: true };
    // a second governance version, in the sandbox, with a later date
    const later = new Date(Date.now() + 2 * 86_400_000);
    const sandboxEntry = (await db().entry.create({ data: { id: randomUUID(), ownerId: id, sandbox: true, name: 's' } })).id;
    await createFile({
      db: db(),
      store: w.store,
      scope,
      entryId: sandboxEntry,
      input: parse({ name: 's.xml', data: Buffer.from(`s ${id}`).toString('base64'), retain_until: later.toISOString() }),
      limits: TEST_FILE_LIMITS,
    });
    const admin = { type: 'admin_key', id: null, name: 'ADMIN_API_KEY' } as const;
    await deleteOwner({ db: db(), id, actor: admin, bypassGovernance: true });
    expect(await db().owner.count({ where: { id } })).toBe(0);
    expect(await db().event.count({ where: { ownerId: id } })).toBe(0);
    const { list } = await listDeletedChains(db(), { limit: 10, owner_id: id });
    expect(list).toHaveLength(1);
    const live = list[0].chains.find((c) => !c.sandbox);
    expect(live?.final_record).toMatchObject({
      type: 'retention.bypassed',
      actor: admin,
      sandbox: false,
      data: { workspace: { id, name: 'governance' }, version_count: 2, retain_until: later.toISOString() },
    });
    expect(live?.verified).toBe(true);
    expect(live?.final_record?.seq).toBe(live?.seq);
    expect(recordHash(live?.final_record as never)).toBe(live?.hash);
    // the sandbox chain's last word is kept too (its version's file.stored)
    expect(list[0].chains.find((c) => c.sandbox)).toMatchObject({ verified: true, final_record: { type: 'file.stored' } });
    // what was kept is append-only, and a record altered by hand no longer checks out
    const sql = (text: string) => w.db.sql.exec(text);
    await expect(sql(`UPDATE deleted_chains SET final_record = NULL WHERE owner_id = '${id}'`)).rejects.toThrow(/append-only/);
    await sql(`ALTER TABLE deleted_chains DISABLE TRIGGER deleted_chains_append_only`);
    await sql(
      `UPDATE deleted_chains SET final_record = jsonb_set(final_record, '{data,version_count}', '1') WHERE owner_id = '${id}' AND NOT sandbox`,
    );
    await sql(`ALTER TABLE deleted_chains ENABLE ALWAYS TRIGGER deleted_chains_append_only`);
    expect((await listDeletedChains(db(), { limit: 10, owner_id: id })).list[0].chains.find((c) => !c.sandbox)?.verified).toBe(false);
  });

  it('an override with nothing retained, and a delete without one, write no retention.bypassed', async () => {
    for (const [kind, bypass] of [
      ['expired', true],
      ['none', false],
    ] as const) {
      const id = await workspace(kind);
      await deleteOwner({ db: db(), id, actor: TEST_ACTOR, bypassGovernance: bypass });
      const [kept] = (await listDeletedChains(db(), { limit: 10, owner_id: id })).list;
      expect(kept.chains.map((c) => [c.final_record?.type, c.verified])).toEqual([['file.stored', true]]);
    }
  });

  it('lists deleted workspaces newest first, in keyset pages', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await workspace('none');
      await deleteOwner({ db: db(), id, actor: TEST_ACTOR, bypassGovernance: false });
      ids.push(id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const p = await listDeletedChains(db(), { limit: 2, cursor });
      seen.push(...p.list.map((d) => d.owner_id));
      cursor = p.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((s) => ids.includes(s))).toEqual([...ids].reverse());
  });

  it('answers 404 for a workspace that does not exist', async () => {
    expect(await attempt(randomUUID(), false)).toBe('not_found');
  });
});
