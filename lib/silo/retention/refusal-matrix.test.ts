// The refusal matrix's cells with no caller (the whole matrix, and where each cell is pinned, heads
// e2e/api/refusal-matrix.spec.ts): the sweep and psql × governance / compliance / legal hold /
// expired. The sweep frees no blob a version refers to, whatever its kind, and an expired version's
// once it is deleted; psql is refused what no one may override (compliance, a hold) and goes for
// what an administrator may (governance) or what has passed (expired): the database is not the
// place that judges an override, the API is.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { File } from '../../db/generated/client';
import type { Scope } from '../../db/scope';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { parseFileInput as parse, TEST_FILE_LIMITS } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { createFile } from '../files/create-file';
import { sweepBlobs } from '../files/sweep-blobs';
import { setLegalHold } from './set-legal-hold';

type Kind = 'governance' | 'compliance' | 'hold' | 'expired';
const KINDS: Kind[] = ['governance', 'compliance', 'hold', 'expired'];
const REFUSED = { governance: null, compliance: /compliance retention/, hold: /under a legal hold/, expired: null } as const;

describe.each(testDatabases())('refusal matrix: sweep and psql (%s)', (database) => {
  let w: TestWorld;

  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w.close());

  const db = () => w.db.prisma;
  const sql = (text: string) => w.db.sql.exec(text);

  /** A workspace of its own with one entry holding a version of `kind`. */
  async function made(kind: Kind): Promise<{ ownerId: string; entryId: string; file: File }> {
    const ownerId = (await createTestOwner(db(), `${kind}-${randomUUID()}`)).id;
    const scope: Scope = { owners: [ownerId], sandbox: false };
    const entryId = (await db().entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: kind } })).id;
    const { file } = await createFile({
      db: db(),
      store: w.store,
      scope,
      entryId,
      input: parse({
        name: 'inv.xml',
        data: Buffer.from(`${kind} ${entryId}`).toString('base64'),
        retain_until: new Date(Date.now() + 86_400_000).toISOString(),
        retention_mode: kind === 'compliance' ? 'compliance' : 'governance',
      }),
      limits: TEST_FILE_LIMITS,
    });
    if (kind === 'expired')
      await sql(`UPDATE files SET retain_until = now() - interval '1 second', retention_mode = 'compliance' WHERE entry_id = '${entryId}'`);
    if (kind === 'hold')
      await setLegalHold({ db: db(), store: w.store, scope, entryId, input: { hold: true, reason: 'audit' }, actor: TEST_ACTOR });
    return { ownerId, entryId, file };
  }

  it('the sweep frees no blob a version refers to, whatever its kind; an expired one once its version is gone', async () => {
    const all = await Promise.all(KINDS.map(made));
    await sweepBlobs(db(), w.store);
    for (const { file } of all) expect(await w.store.exists(file.hash)).toBe(true);
    // expired: deleted by hand, the row is gone and the next sweep frees its bytes
    const expired = all[KINDS.indexOf('expired')];
    await sql(`DELETE FROM files WHERE id = '${expired.file.id}'`);
    const swept = await sweepBlobs(db(), w.store);
    expect(swept.freed).toBe(1);
    expect(await w.store.exists(expired.file.hash)).toBe(false);
    for (const { file } of all.filter((a) => a !== expired)) expect(await w.store.exists(file.hash)).toBe(true);
  });

  for (const kind of KINDS)
    it(`psql × ${kind}: DELETE of the version, the entry, the workspace ${REFUSED[kind] ? 'refused' : 'goes'}`, async () => {
      const target = await made(kind);
      const statements = [
        `DELETE FROM files WHERE id = '${target.file.id}'`,
        `DELETE FROM entries WHERE id = '${target.entryId}'`,
        `DELETE FROM owners WHERE id = '${target.ownerId}'`,
      ];
      const refused = REFUSED[kind];
      if (refused) {
        for (const s of statements) await expect(sql(s)).rejects.toThrow(refused);
        expect(await db().file.count({ where: { id: target.file.id } })).toBe(1);
        expect(await db().owner.count({ where: { id: target.ownerId } })).toBe(1);
      } else {
        // one at a time from the workspace down: each would take the version with it
        await sql(statements[2]);
        expect(await db().file.count({ where: { id: target.file.id } })).toBe(0);
        expect(await db().entry.count({ where: { id: target.entryId } })).toBe(0);
        const other = await made(kind);
        await sql(`DELETE FROM files WHERE id = '${other.file.id}'`);
        await sql(`DELETE FROM entries WHERE id = '${other.entryId}'`);
        expect(await db().file.count({ where: { id: other.file.id } })).toBe(0);
      }
    });
});
