// `?q=` through entry_search (migration search_and_folder_counts): the triggers keep each entry's
// search text as its name, key and current file names change, and a term matches within one of
// them, never across two. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { SMALL_BLOB_LIMITS, parseFileInput as parse, sha256 } from '../testing/files';
import { createTestOwner } from '../testing/owner';
import { createEntry } from './create-entry';
import { createFile } from './files/create-file';
import { deleteFile } from './files/delete-file';
import { listEntries } from './list-entries';
import { updateEntry } from './update-entry';

describe.each(testDatabases())('entry search (%s)', (database) => {
  let w: TestWorld;
  let target: { ownerId: string; sandbox: boolean };
  beforeAll(async () => {
    w = await testWorld({ database });
    target = { ownerId: (await createTestOwner(w.db.prisma, 'search')).id, sandbox: false };
  });
  afterAll(() => w.close());

  const names = async (q: string) => {
    const page = await listEntries({ db: w.db.prisma, target, query: { limit: 100, q } });
    return page.list.map((e) => e.name).sort();
  };
  const file = (entryId: string, input: object) =>
    createFile({
      db: w.db.prisma,
      store: w.store,
      scope: { owners: [target.ownerId], sandbox: false },
      entryId,
      input: parse({ mime: 'application/pdf', ...input }),
      limits: SMALL_BLOB_LIMITS,
      actor: null,
    });
  const data = Buffer.from('x').toString('base64');

  it('follows names, keys, current versions and placeholders, and matches within one of them', async () => {
    const db = w.db.prisma;
    const make = async (name: string, key?: string) =>
      (await createEntry({ actor: TEST_ACTOR, db, target, input: { folder: '', name, meta: {}, ...(key ? { key } : {}) } })).entry;
    const a = await make('Alpha', 'KEY-one');
    const b = await make('Beta');
    const c = await make('Gamma');

    expect(await names('key-ONE')).toEqual(['Alpha']);
    // A new version of a slot: only the current one's name counts.
    await file(b.id, { name: 'first-scan.pdf', key: 'scan', data });
    expect(await names('first-scan')).toEqual(['Beta']);
    const second = await file(b.id, { name: 'second-scan.pdf', key: 'scan', data });
    expect(await names('first-scan')).toEqual([]);
    expect(await names('second-scan')).toEqual(['Beta']);
    // A placeholder (no bytes yet) counts; deleting the file takes its name away.
    await file(c.id, { name: 'awaited-upload.pdf', size: 1, sha256: sha256('x') });
    expect(await names('awaited-upload')).toEqual(['Gamma']);
    await deleteFile({ db, store: w.store, file: second.file, actor: null });
    expect(await names('second-scan')).toEqual([]);
    expect(await names('first-scan')).toEqual([]);
    // A PATCH of the name or key.
    await updateEntry({ actor: TEST_ACTOR, db, scope: { owners: 'all' }, id: a.id, patch: { name: 'Renamed', key: 'KEY-two' } });
    expect(await names('alpha')).toEqual([]);
    expect(await names('renamed')).toEqual(['Renamed']);
    expect(await names('key-one')).toEqual([]);
    expect(await names('key-two')).toEqual(['Renamed']);

    // Not across two fields, though the search text puts them on adjacent lines.
    const d = await make('left', 'right');
    await file(d.id, { name: 'third', data });
    for (const q of ['left\nright', 't\nr', 'right\nthird', '\n']) expect(await names(q)).toEqual([]);
    expect(await names('Left')).toEqual(['left']);

    // The derived text is what the triggers would write from scratch, for every entry.
    const stale = await db.$queryRaw<unknown[]>`
      SELECT s.entry_id FROM entry_search s WHERE s.text IS DISTINCT FROM entry_search_text(s.entry_id)`;
    expect(stale).toEqual([]);
    const missing = await db.$queryRaw<unknown[]>`
      SELECT e.id FROM entries e LEFT JOIN entry_search s ON s.entry_id = e.id WHERE s.entry_id IS NULL`;
    expect(missing).toEqual([]);
  });
});
