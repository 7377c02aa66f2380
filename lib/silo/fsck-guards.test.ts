// fsck names what a superuser did past the database's guards (migration bytes_under_guard): a
// retained version's bytes rewritten in the database, a retained or held version's blob gone (its
// bytes, or its row of `blobs`), and a version the event log recorded whose row is gone with no
// record of its delete. What the server itself deleted is named by none of them.
import { randomBytes, randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { File } from '../db/generated/client';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { parseFileInput as parse, SMALL_BLOB_LIMITS, TEST_FILE_LIMITS } from '../testing/files';
import { createTestOwner } from '../testing/owner';
import { DatabaseStore } from '../storage/database-store';
import { deleteEntry } from './delete-entry';
import { createFile } from './files/create-file';
import { deleteFile } from './files/delete-file';
import { restoreFile } from './files/restore-file';
import { fsck, hasProblems } from './fsck';
import { setLegalHold } from './retention/set-legal-hold';

const FUTURE = () => new Date(Date.now() + 10 * 365 * 86_400_000).toISOString();

describe.each(testDatabases())('fsck names what the guards were switched off for (%s)', (database) => {
  let w: TestWorld;
  let ownerId: string;
  const scope = () => ({ owners: [ownerId], sandbox: false });

  beforeAll(async () => {
    w = await testWorld({ database });
    ownerId = (await createTestOwner(w.db.prisma, `fsck-guards-${database}`)).id;
  });
  afterAll(() => w.close());

  const db = () => w.db.prisma;
  /** fsck as npm run fsck runs it: every read from the database, past the process's cache of small bytes */
  const check = (opts: { verifyBytes?: boolean } = {}) => fsck(db(), new DatabaseStore(db(), w.local, { keepUpTo: 0, cache: false }), opts);
  /** `statement` as a superuser may send it: with `trigger` of `table` switched off, and on again after. */
  const pastGuard = (table: string, trigger: string, statement: string) =>
    w.db.sql.exec(`BEGIN; ALTER TABLE ${table} DISABLE TRIGGER ${trigger}; ${statement};
      ALTER TABLE ${table} ENABLE ALWAYS TRIGGER ${trigger}; COMMIT;`);
  const entry = async () => (await db().entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: 'e' } })).id;
  async function version(opts: { retained?: boolean; kept?: boolean; entryId?: string; name?: string } = {}): Promise<File> {
    const entryId = opts.entryId ?? (await entry());
    const asked = opts.retained ? { retain_until: FUTURE(), retention_mode: 'compliance' } : {};
    const data = Buffer.from(`<Invoice>${randomBytes(8).toString('hex')} total 100.00</Invoice>`).toString('base64');
    const { file } = await createFile({
      db: db(),
      store: w.store,
      scope: scope(),
      entryId,
      input: parse({ name: opts.name ?? 'inv.xml', data, ...asked }),
      limits: opts.kept === false ? TEST_FILE_LIMITS : SMALL_BLOB_LIMITS,
    });
    return file;
  }

  it('names none of it while nothing was done past the guards, whatever the server deleted', async () => {
    const a = await version({ name: 'a.xml' });
    await version({ entryId: a.entryId, name: 'a.xml' });
    await deleteFile({ db: db(), store: w.store, file: a, actor: TEST_ACTOR }); // an earlier version
    const b = await version();
    await deleteFile({ db: db(), store: w.store, file: b, actor: TEST_ACTOR }); // the file with its history
    const c = await version();
    await restoreFile({ db: db(), store: w.store, version: c, actor: null });
    await deleteEntry({ db: db(), store: w.store, scope: scope(), id: c.entryId, actor: TEST_ACTOR });
    await version({ retained: true });
    const report = await check();
    expect([report.bad, report.retainedGone, report.vanished, hasProblems(report)]).toEqual([[], [], [], false]);
  });

  it("(a) a retained version's bytes rewritten in the database: wrong bytes (--quick: not at the same size)", async () => {
    const v = await version({ retained: true });
    const bytes = await readBack(v);
    await pastGuard('blobs', 'blob_guard_update', `UPDATE blobs SET data = set_byte(data, 9, 70) WHERE hash = '${v.hash}'`);
    const report = await check();
    expect(report.bad.filter((b) => b.hash === v.hash)).toMatchObject([{ problem: 'wrong_bytes', example: { fileId: v.id } }]);
    expect(hasProblems(report)).toBe(true);
    expect((await check({ verifyBytes: false })).bad.filter((b) => b.hash === v.hash)).toEqual([]);
    // put right: the true bytes written again, which the guard lets through
    await w.db.sql.exec(`UPDATE blobs SET data = '\\x${bytes.toString('hex')}'::bytea WHERE hash = '${v.hash}'`);
    expect((await check()).bad.filter((b) => b.hash === v.hash)).toEqual([]);
  });

  /** The version's bytes as the server would serve them now. */
  async function readBack(v: File): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const chunk of await w.store.read(v.hash)) parts.push(chunk as Buffer);
    return Buffer.concat(parts);
  }

  it('(c) a retained or held version whose blob is gone: its bytes, or its row of blobs', async () => {
    const held = await version();
    await setLegalHold({
      db: db(),
      store: w.store,
      scope: scope(),
      entryId: held.entryId,
      input: { hold: true, reason: 'audit' },
      actor: TEST_ACTOR,
    });
    const rowOnly = await version({ retained: true, kept: false });
    const lostFile = await version({ retained: true, kept: false });
    const plain = await version();
    for (const v of [held, rowOnly, plain]) await pastGuard('blobs', 'blob_guard_delete', `DELETE FROM blobs WHERE hash = '${v.hash}'`);
    await unlink(path.join(w.storeDir, 'sha256', lostFile.hash.slice(0, 2), lostFile.hash));

    for (const quick of [false, true]) {
      const report = await check({ verifyBytes: !quick });
      const gone = Object.fromEntries(report.retainedGone.map((g) => [g.hash, g]));
      expect(Object.keys(gone).sort()).toEqual([held.hash, rowOnly.hash, lostFile.hash].sort());
      expect(gone[held.hash]).toMatchObject({
        gone: 'bytes',
        versions: 1,
        examples: [{ fileId: held.id, legalHold: true, retention: null }],
      });
      expect(gone[rowOnly.hash]).toMatchObject({
        gone: 'row',
        versions: 1,
        examples: [{ fileId: rowOnly.id, retention: { mode: 'compliance' } }],
      });
      expect(gone[lostFile.hash]).toMatchObject({ gone: 'bytes', examples: [{ fileId: lostFile.id, legalHold: false }] });
      // the plain version's loss is a missing blob, as before; rowOnly's bytes are still served
      const missing = report.bad.filter((b) => b.problem === 'missing').map((b) => b.hash);
      expect(missing.sort()).toEqual([held.hash, lostFile.hash, plain.hash].sort());
    }
    expect((await readBack(rowOnly)).length).toBeGreaterThan(0);
  });

  it('(b) a version the event log recorded, its row gone with no record of its delete', async () => {
    const plain = await version({ name: 'plain.xml' });
    const retained = await version({ retained: true, name: 'retained.xml' });
    const source = await version({ name: 'source.xml' });
    const restored = await restoreFile({ db: db(), store: w.store, version: source, actor: null });
    await w.db.sql.exec(`DELETE FROM files WHERE id IN ('${plain.id}', '${restored.id}')`);
    await pastGuard('files', 'compliance_retained', `DELETE FROM files WHERE id = '${retained.id}'`);
    const report = await check({ verifyBytes: false });
    const vanished = Object.fromEntries(report.vanished.map((v) => [v.fileId, v]));
    expect(Object.keys(vanished).sort()).toEqual([plain.id, retained.id, restored.id].sort());
    expect(vanished[retained.id]).toMatchObject({
      ownerId,
      sandbox: false,
      type: 'file.stored',
      entryId: retained.entryId,
      name: 'retained.xml',
      version: 1,
    });
    expect(vanished[restored.id]).toMatchObject({ type: 'file.restored', version: 2 });
    expect(hasProblems(report)).toBe(true);
  });
});
