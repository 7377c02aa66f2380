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

  it('answers 404 for a workspace that does not exist', async () => {
    expect(await attempt(randomUUID(), false)).toBe('not_found');
  });
});
