// Bytes under the same guard as their versions (migration bytes_under_guard, docs/api.md,
// Retention): the blob a compliance-retained or held version points at cannot be rewritten,
// renamed, emptied, deleted or truncated by raw SQL, in replica mode too; its entry cannot move to
// another workspace or environment, nor its row's copies of them. Writing the same (true) bytes
// again passes, as every deduplicated inline write does; what nothing guards (unreferenced,
// expired, governance, a lifted hold) is freed as before, the sweep included.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { File } from '../../db/generated/client';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { parseFileInput as parse, SMALL_BLOB_LIMITS, sha256, TEST_FILE_LIMITS } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { createFile } from '../files/create-file';
import { sweepBlobs } from '../files/sweep-blobs';
import { setLegalHold } from './set-legal-hold';

type Kind = 'compliance' | 'hold' | 'governance' | 'expired' | 'plain';
const FUTURE = () => new Date(Date.now() + 10 * 365 * 86_400_000).toISOString();
const REFUSED = { compliance: /under compliance retention until /, hold: /under a legal hold: / } as const;

describe.each(testDatabases())('bytes under the guard of their versions (%s)', (database) => {
  let w: TestWorld;

  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w.close());

  const db = () => w.db.prisma;
  const sql = (text: string) => w.db.sql.exec(text);
  const replica = async (text: string) => {
    try {
      await sql(`BEGIN; SET LOCAL session_replication_role = replica; ${text}; COMMIT;`);
    } finally {
      await sql('ROLLBACK').catch(() => {});
    }
  };
  const rowOf = async (hash: string) =>
    (await db().$queryRaw<{ size: bigint; data: Buffer | null }[]>`SELECT size, data FROM blobs WHERE hash = ${hash}`)[0];

  /** A workspace with an entry holding one `kind` version: its bytes in the database (`kept`) or in the blob store. */
  async function version(kind: Kind, kept = true): Promise<{ ownerId: string; entryId: string; file: File; bytes: Buffer }> {
    const ownerId = (await createTestOwner(db(), `${kind}-${randomUUID()}`)).id;
    const scope = { owners: [ownerId], sandbox: false };
    const entryId = (await db().entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: kind } })).id;
    const bytes = Buffer.from(`<Invoice>${kind} ${randomBytes(8).toString('hex')} total 100.00</Invoice>`);
    const asked = kind === 'compliance' || kind === 'governance' ? { retain_until: FUTURE(), retention_mode: kind } : {};
    const { file } = await createFile({
      db: db(),
      store: w.store,
      scope,
      entryId,
      input: parse({ name: 'inv.xml', data: bytes.toString('base64'), ...asked }),
      limits: kept ? SMALL_BLOB_LIMITS : TEST_FILE_LIMITS,
    });
    if (kind === 'hold')
      await setLegalHold({ db: db(), store: w.store, scope, entryId, input: { hold: true, reason: 'audit' }, actor: TEST_ACTOR });
    if (kind === 'expired')
      await sql(`UPDATE files SET retain_until = now() - interval '1 day', retention_mode = 'compliance' WHERE id = '${file.id}'`);
    return { ownerId, entryId, file, bytes };
  }

  for (const kind of ['compliance', 'hold'] as const)
    for (const kept of [true, false])
      it(`${kind}, bytes ${kept ? 'in the database' : 'in the blob store'}: no UPDATE that changes them, no DELETE, no TRUNCATE, in replica mode too`, async () => {
        const { file, bytes } = await version(kind, kept);
        const h = file.hash;
        const forged = `'\\x${Buffer.from('<Invoice>FORGED total 0.00</Invoice>').toString('hex')}'::bytea`;
        const refused = REFUSED[kind];
        for (const statement of [
          `UPDATE blobs SET data = ${forged} WHERE hash = '${h}'`,
          `UPDATE blobs SET data = ${forged}, size = 35 WHERE hash = '${h}'`,
          `UPDATE blobs SET size = size + 1 WHERE hash = '${h}'`,
          `UPDATE blobs SET hash = repeat('0', 64) WHERE hash = '${h}'`,
          `DELETE FROM blobs WHERE hash = '${h}'`,
        ])
          await expect(sql(statement), statement).rejects.toThrow(refused);
        // the whole table: refused by whichever guarded blob comes first (earlier tests made some)
        for (const statement of ['DELETE FROM blobs', 'TRUNCATE blobs'])
          await expect(sql(statement), statement).rejects.toThrow(
            / (under compliance retention until |under a legal hold: ).*(DELETE|TRUNCATE) is refused/,
          );
        if (kept) await expect(sql(`UPDATE blobs SET data = NULL WHERE hash = '${h}'`)).rejects.toThrow(refused);
        await expect(replica(`UPDATE blobs SET data = ${forged} WHERE hash = '${h}'`)).rejects.toThrow(refused);
        await expect(replica(`DELETE FROM blobs WHERE hash = '${h}'`)).rejects.toThrow(refused);
        const row = await rowOf(h);
        expect(Number(row.size)).toBe(bytes.length);
        expect(row.data ? Buffer.from(row.data).equals(bytes) : !kept).toBe(true);

        // the same bytes written again pass: raw, and as an inline write of them in another workspace does
        const same = `'\\x${bytes.toString('hex')}'::bytea`;
        await sql(
          `INSERT INTO blobs (hash, size, data) VALUES ('${h}', ${bytes.length}, ${same}) ON CONFLICT (hash) DO UPDATE SET data = EXCLUDED.data`,
        );
        await sql(`UPDATE blobs SET data = ${same} WHERE hash = '${h}'`);
        await version('plain').then(async ({ ownerId, entryId }) =>
          createFile({
            db: db(),
            store: w.store,
            scope: { owners: [ownerId], sandbox: false },
            entryId,
            input: parse({ name: 'copy.xml', data: bytes.toString('base64') }),
            limits: SMALL_BLOB_LIMITS,
          }),
        );
        expect(Buffer.from((await rowOf(h)).data as Buffer).equals(bytes)).toBe(true);
      });

  it('true bytes mend what a superuser changed behind the guard', async () => {
    const { file, bytes } = await version('compliance');
    await sql(
      `BEGIN; ALTER TABLE blobs DISABLE TRIGGER blob_guard_update; UPDATE blobs SET data = '\\x00'::bytea WHERE hash = '${file.hash}';
       ALTER TABLE blobs ENABLE ALWAYS TRIGGER blob_guard_update; COMMIT;`,
    );
    await expect(sql(`UPDATE blobs SET data = '\\x01'::bytea WHERE hash = '${file.hash}'`)).rejects.toThrow(REFUSED.compliance);
    await sql(`UPDATE blobs SET data = '\\x${bytes.toString('hex')}'::bytea WHERE hash = '${file.hash}'`);
    expect(Buffer.from((await rowOf(file.hash)).data as Buffer).equals(bytes)).toBe(true);
  });

  for (const kind of ['compliance', 'hold'] as const)
    it(`${kind}: its entry keeps its workspace and environment, and so does its row's copy of them`, async () => {
      const { entryId, file } = await version(kind);
      const other = (await createTestOwner(db(), `elsewhere-${randomUUID()}`)).id;
      const refused = REFUSED[kind];
      for (const statement of [
        `UPDATE entries SET owner_id = '${other}' WHERE id = '${entryId}'`,
        `UPDATE entries SET sandbox = true WHERE id = '${entryId}'`,
        `UPDATE files SET owner_id = '${other}' WHERE id = '${file.id}'`,
        `UPDATE files SET sandbox = true WHERE id = '${file.id}'`,
        `UPDATE files SET hash = '${sha256('other')}' WHERE id = '${file.id}'`,
      ]) {
        await expect(sql(statement), statement).rejects.toThrow(refused);
        await expect(replica(statement), `replica: ${statement}`).rejects.toThrow(refused);
      }
      const [entry, row] = await Promise.all([
        db().entry.findUniqueOrThrow({ where: { id: entryId } }),
        db().file.findUniqueOrThrow({ where: { id: file.id } }),
      ]);
      expect([entry.ownerId, entry.sandbox, row.ownerId, row.sandbox, row.hash]).toEqual([
        file.ownerId,
        false,
        file.ownerId,
        false,
        file.hash,
      ]);
      // what stays an ordinary UPDATE: the entry's name, the version's description
      await sql(`UPDATE entries SET name = 'renamed' WHERE id = '${entryId}'; UPDATE files SET "desc" = 'noted' WHERE id = '${file.id}'`);
    });

  it('what nothing guards goes as before: unreferenced, expired, governance, a lifted hold; an entry of them moves', async () => {
    const lone = Buffer.from(`lone ${randomBytes(8).toString('hex')}`);
    await db().$executeRaw`INSERT INTO blobs (hash, size, data) VALUES (${sha256(lone)}, ${lone.length}, ${lone})`;
    await sql(`UPDATE blobs SET data = '\\x00'::bytea WHERE hash = '${sha256(lone)}'`);
    await sql(`DELETE FROM blobs WHERE hash = '${sha256(lone)}'`);
    const expired = await version('expired');
    const governance = await version('governance');
    const lifted = await version('hold');
    await setLegalHold({
      db: db(),
      store: w.store,
      scope: { owners: [lifted.ownerId], sandbox: false },
      entryId: lifted.entryId,
      input: { hold: false, reason: '' },
      actor: TEST_ACTOR,
    });
    const other = (await createTestOwner(db(), `moved-${randomUUID()}`)).id;
    for (const v of [expired, governance, lifted]) {
      await sql(`UPDATE entries SET owner_id = '${other}', sandbox = true WHERE id = '${v.entryId}'`);
      expect(await db().file.findUniqueOrThrow({ where: { id: v.file.id } })).toMatchObject({ ownerId: other, sandbox: true });
      await replica(`UPDATE blobs SET data = NULL WHERE hash = '${v.file.hash}'`);
      await sql(`DELETE FROM blobs WHERE hash = '${v.file.hash}'`);
      expect(await rowOf(v.file.hash)).toBeUndefined();
    }
  });

  it('the sweep still frees unreferenced blobs and leaves the guarded ones', async () => {
    const guarded = await version('compliance');
    const held = await version('hold', false);
    const lone = Buffer.from(`swept ${randomBytes(8).toString('hex')}`);
    await db().$executeRaw`INSERT INTO blobs (hash, size, data) VALUES (${sha256(lone)}, ${lone.length}, ${lone})`;
    const orphan = await w.store.receive('orphan', [Buffer.from(`orphan ${randomUUID()}`)], { offset: 0, maxBytes: 100 });
    await w.store.commitHeld('orphan', orphan.hash);
    await db().$executeRaw`INSERT INTO blobs (hash, size) VALUES (${orphan.hash}, ${orphan.size})`;
    const swept = await sweepBlobs(db(), w.store);
    expect(swept.freed).toBeGreaterThanOrEqual(2);
    expect([await rowOf(sha256(lone)), await rowOf(orphan.hash), await w.store.exists(orphan.hash)]).toEqual([undefined, undefined, false]);
    for (const v of [guarded, held]) expect(await w.store.exists(v.file.hash)).toBe(true);
  });
});
