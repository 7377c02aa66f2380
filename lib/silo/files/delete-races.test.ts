// Writes racing a delete of what they write: each answers success or 404, never a deadlock
// (PostgreSQL's 40P01 once answered 500) nor Prisma's P2025 for a row gone meanwhile.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import { isApiError } from '../../errors';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { createTestEntry } from '../../testing/owner';
import { TEST_FILE_LIMITS as LIMITS, parseFileInput as parse } from '../../testing/files';
import { deleteEntry } from '../delete-entry';
import { updateEntry, updateEntryRow } from '../update-entry';
import { createFile } from './create-file';
import { deleteFile } from './delete-file';
import { revokeLinks } from './file-links';
import { restoreFile } from './restore-file';
import { updateFile } from './update-file';
import { TEST_ACTOR } from '../../testing/actor';

const ROUNDS = 30;
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** 'ok' or 'not_found'; anything else (a deadlock, a P2025) fails the test with its message. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    if (isApiError(err) && err.status === 404) return 'not_found';
    const e = err as { code?: string; message?: string };
    return `unexpected: ${e.code} ${e.message?.split('\n').filter(Boolean).pop()?.slice(0, 200)}`;
  }
}

describe.each(testDatabases())('writes racing a delete (%s)', (database) => {
  let w: TestWorld;
  let scope: Scope;
  let entryId: string;

  beforeAll(async () => {
    w = await testWorld({ database });
    ({ scope, entryId } = await createTestEntry(w.db.prisma, `races-${database}`));
  });
  afterAll(() => w.close());

  /** A current file with an earlier stored version (the delete takes both, the trigger bumps the slot). */
  async function fileWithHistory(inEntry = entryId) {
    const name = `r-${Math.random()}.txt`;
    const upload = (data: string) =>
      createFile({ db: w.db.prisma, store: w.store, scope, entryId: inEntry, input: parse({ name, data: b64(data) }), limits: LIMITS });
    const first = await upload(`one ${name}`);
    return { ...(await upload(`two ${name}`)).file, first: first.file };
  }

  /** `write` racing a DELETE of the current file, ROUNDS times; with `allGone`, nothing of the file may remain. */
  async function race(write: (file: Awaited<ReturnType<typeof fileWithHistory>>) => Promise<unknown>, allGone = true) {
    for (let i = 0; i < ROUNDS; i++) {
      const file = await fileWithHistory();
      const results = await Promise.all([
        outcome(write(file)),
        outcome(deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file })),
      ]);
      expect(results.filter((r) => r.startsWith('unexpected'))).toEqual([]);
      if (allGone) expect(await w.db.prisma.file.count({ where: { slotId: file.slotId } })).toBe(0);
    }
  }

  it(`PATCH of a file racing its DELETE answers success or 404 (${ROUNDS} rounds)`, async () => {
    await race((file) => updateFile({ actor: TEST_ACTOR, db: w.db.prisma, file, patch: { desc: 'patched' } }));
  });

  it(`revoking a file's links racing its DELETE answers success or 404 (${ROUNDS} rounds)`, async () => {
    await race((file) => revokeLinks(w.db.prisma, file, TEST_ACTOR));
  });

  it(`restoring an earlier version racing the file's DELETE answers success or 404 (${ROUNDS} rounds)`, async () => {
    await race((file) => restoreFile({ db: w.db.prisma, store: w.store, version: file.first }), false);
  });

  it('PATCH of a file and link revocation after its DELETE answer 404', async () => {
    const file = await fileWithHistory();
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file });
    expect(await outcome(updateFile({ actor: TEST_ACTOR, db: w.db.prisma, file, patch: { desc: 'late' } }))).toBe('not_found');
    expect(await outcome(revokeLinks(w.db.prisma, file, TEST_ACTOR))).toBe('not_found');
  });

  it(`PATCH of an entry racing its DELETE answers success or 404 (${ROUNDS} rounds)`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const id = (
        await w.db.prisma.entry.create({
          data: { id: randomUUID(), ownerId: (scope.owners as string[])[0], sandbox: false, name: `e${i}` },
        })
      ).id;
      const file = await fileWithHistory(id);
      const results = await Promise.all([
        outcome(updateEntry({ actor: TEST_ACTOR, db: w.db.prisma, scope, id, patch: { name: 'renamed' } })),
        outcome(updateFile({ actor: TEST_ACTOR, db: w.db.prisma, file, patch: { desc: 'patched' } })),
        outcome(deleteEntry({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, scope, id })),
      ]);
      expect(results.filter((r) => r.startsWith('unexpected'))).toEqual([]);
    }
  });

  it('PATCH of an entry found before its DELETE committed answers 404, not 500', async () => {
    const { entryId: id, scope: s } = await createTestEntry(w.db.prisma, 'late-entry');
    // The entry is found (and cached) by the PATCH; the row goes before the PATCH's UPDATE runs.
    const entry = await w.db.prisma.entry.findUniqueOrThrow({ where: { id } });
    await w.db.prisma.entry.delete({ where: { id: entry.id } });
    expect(await outcome(updateEntryRow(w.db.prisma, entry, { name: 'late' }, TEST_ACTOR))).toBe('not_found');
    expect(await outcome(updateEntry({ actor: TEST_ACTOR, db: w.db.prisma, scope: s, id, patch: { name: 'late' } }))).toBe('not_found');
  });
});
