// A legal hold racing deletes and new versions (docs/api.md, Retention): no deadlock, no 500, and
// the record's order is the truth — a version deleted before the hold's record, or refused after
// it; every version of a held entry shows the hold, whenever it was stored.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import { isApiError } from '../../errors';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { parseFileInput as parse, SMALL_BLOB_LIMITS } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { createFile } from '../files/create-file';
import { deleteFile } from '../files/delete-file';
import { setLegalHold } from './set-legal-hold';

const ROUNDS = 15;

describe.each(testDatabases())('a legal hold racing writes (%s)', (database) => {
  let w: TestWorld;
  let ownerId: string;
  let scope: Scope;

  beforeAll(async () => {
    w = await testWorld({ database });
    ownerId = (await createTestOwner(w.db.prisma, `hold-${database}`)).id;
    scope = { owners: [ownerId], sandbox: false };
  });
  afterAll(() => w.close());

  const db = () => w.db.prisma;
  const seqOf = async (entryId: string, type: string) =>
    Number((await db().event.findFirst({ where: { entryId, type }, orderBy: { seq: 'desc' } }))?.seq ?? 0);
  const outcome = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (err) => (isApiError(err) && err.status < 500 ? err.key : `unexpected: ${(err as Error).message}`),
    );

  it('a delete either commits before the hold or is refused after it', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const entryId = (await db().entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: 'h' } })).id;
      const { file } = await createFile({
        db: db(),
        store: w.store,
        scope,
        entryId,
        input: parse({ name: 'a.txt', data: Buffer.from(`a ${i}`).toString('base64') }),
        limits: SMALL_BLOB_LIMITS,
      });
      const [deleted, held] = await Promise.all([
        outcome(deleteFile({ db: db(), store: w.store, file, actor: TEST_ACTOR })),
        outcome(setLegalHold({ db: db(), store: w.store, scope, entryId, input: { hold: true, reason: 'r' }, actor: TEST_ACTOR })),
      ]);
      expect(held).toBe('ok');
      const holdSeq = await seqOf(entryId, 'legal_hold.set');
      if (deleted === 'ok') expect(await seqOf(entryId, 'file.deleted')).toBeLessThan(holdSeq);
      else {
        expect(deleted).toBe('legal_hold');
        expect(await seqOf(entryId, 'file.delete_refused')).toBeGreaterThan(holdSeq);
        expect(await db().file.count({ where: { id: file.id } })).toBe(1);
      }
    }
  });

  it('every version stored before, during or after the hold shows it', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const entryId = (await db().entry.create({ data: { id: randomUUID(), ownerId, sandbox: false, name: 'n' } })).id;
      const store = (n: string) =>
        createFile({
          db: db(),
          store: w.store,
          scope,
          entryId,
          input: parse({ name: n, data: Buffer.from(`${n} ${i}`).toString('base64') }),
          limits: SMALL_BLOB_LIMITS,
        });
      const [a, held, b] = await Promise.all([
        outcome(store('a.txt')),
        outcome(setLegalHold({ db: db(), store: w.store, scope, entryId, input: { hold: true, reason: 'r' }, actor: TEST_ACTOR })),
        outcome(store('b.txt')),
      ]);
      expect([a, held, b]).toEqual(['ok', 'ok', 'ok']);
      // stored before the hold: the hold marks it; after: it reads the hold as it is stored
      const files = await db().file.findMany({ where: { entryId } });
      expect(files.map((f) => [f.name, f.legalHold]).sort()).toEqual([
        ['a.txt', true],
        ['b.txt', true],
      ]);
    }
  });
});
