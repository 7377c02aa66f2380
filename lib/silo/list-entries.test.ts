import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../db/generated/client';
import { createTestOwner } from '../testing/owner';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createEntry } from './create-entry';
import { listEntries, listSql, type EntryListQuery } from './list-entries';
import type { FolderRecord } from '../schemas/entries';
import { type FolderListQuery, listFolders } from './list-folders';
import { deleteEntry } from './delete-entry';
import { updateEntry } from './update-entry';
import { TEST_ACTOR } from '../testing/actor';

/** A Sort node that orders the page itself. */
const PAGE_SORT = /Sort Key: [ef]\.(created_at|entry_id|id)/;

describe.each(testDatabases())('listEntries (%s)', (database) => {
  let w: TestWorld;
  beforeAll(async () => (w = await testWorld({ database })));
  afterAll(() => w.close());

  const allPages = async (target: { ownerId: string; sandbox: boolean }, query: Omit<EntryListQuery, 'cursor'>) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listEntries({ db: w.db.prisma, target, query: { ...query, cursor } });
      seen.push(...page.list.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    return seen;
  };

  /** Every page of the folder list, joined. */
  const allFolders = async (target: { ownerId: string; sandbox: boolean }, query: Omit<FolderListQuery, 'cursor'>) => {
    const seen: FolderRecord[] = [];
    let cursor: string | undefined;
    do {
      const page = await listFolders(w.db.prisma, target, { ...query, cursor });
      expect(page.list.length).toBeLessThanOrEqual(query.limit);
      seen.push(...page.list);
      cursor = page.next_cursor;
    } while (cursor);
    return seen;
  };

  it('visits every entry exactly once, newest first, even when many share a timestamp', async () => {
    const db = w.db.prisma;
    const owner = await createTestOwner(db, 'A');
    const target = { ownerId: owner.id, sandbox: false };
    const ids: string[] = [];
    for (let i = 0; i < 9; i++)
      ids.push(
        (await createEntry({ actor: TEST_ACTOR, db, target, input: { folder: i < 3 ? 'x' : '', name: `${i}`, meta: {} } })).entry.id,
      );
    const same = new Date('2026-01-01T00:00:00.000Z');
    await db.entry.updateMany({ where: { id: { in: ids.slice(2, 7) } }, data: { createdAt: same } });
    const expected = (await db.entry.findMany({ where: { ownerId: owner.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })).map(
      (e) => e.id,
    );
    for (const limit of [1, 2, 4]) {
      expect(await allPages(target, { limit })).toEqual(expected);
      expect(await allPages(target, { limit, folder: 'x' })).toEqual(expected.filter((id) => ids.slice(0, 3).includes(id)));
    }
    const other = await createTestOwner(db, 'B');
    expect((await listEntries({ db, target: { ownerId: other.id, sandbox: false }, query: { limit: 10 } })).list).toEqual([]);
    expect((await listEntries({ db, target: { ownerId: owner.id, sandbox: true }, query: { limit: 10 } })).list).toEqual([]);
    expect((await listEntries({ db, target, query: { limit: 10, folder_exact: 'x' } })).list).toHaveLength(3);
    expect((await listEntries({ db, target, query: { limit: 10, folder_exact: '' } })).list).toHaveLength(6);
  });

  it('pages a folder subtree (and a search in it) exactly as filtering the whole list would, for random folder trees', async () => {
    const db = w.db.prisma;
    const segment = fc.constantFrom('a', 'b', 'ab', 'a b', '%', '_');
    const folder = fc.array(segment, { maxLength: 3 }).map((s) => s.join('/'));
    const entry = fc.record({
      folder,
      later: fc.option(folder),
      name: fc.constantFrom('Invoice', 'receipt', '100%', 'x_y', ''),
      tie: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { minLength: 1, maxLength: 12 }),
        folder,
        fc.integer({ min: 1, max: 5 }),
        fc.option(fc.constantFrom('inv', '%', '_', 'A')),
        async (specs, asked, limit, q) => {
          const owner = await createTestOwner(db, 'tree');
          const target = { ownerId: owner.id, sandbox: false };
          const made: { id: string; folder: string; name: string; createdAt: Date }[] = [];
          for (const s of specs) {
            let e = (await createEntry({ actor: TEST_ACTOR, db, target, input: { folder: s.folder, name: s.name, meta: {} } })).entry;
            if (s.tie) e = await db.entry.update({ where: { id: e.id }, data: { createdAt: new Date('2026-01-01T00:00:00.000Z') } });
            if (s.later !== null)
              e = await updateEntry({ actor: TEST_ACTOR, db, scope: { owners: 'all' }, id: e.id, patch: { folder: s.later } });
            made.push(e);
          }
          const newestFirst = [...made].sort(
            (x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0),
          );
          const under = (f: string, p: string) => f === p || f.startsWith(`${p}/`);
          const matches = (n: string) => q === null || n.toLowerCase().includes(q.toLowerCase());
          const expected = newestFirst.filter((e) => (asked === '' || under(e.folder, asked)) && matches(e.name)).map((e) => e.id);
          expect(await allPages(target, { limit, folder: asked, ...(q !== null ? { q } : {}) })).toEqual(expected);

          const counts = new Map<string, number>();
          for (const e of made) {
            const parts = e.folder === '' ? [] : e.folder.split('/');
            const prefixes = new Set(parts.map((_, i) => parts.slice(0, i + 1).join('/')).filter((p) => p !== ''));
            for (const p of prefixes) counts.set(p, (counts.get(p) ?? 0) + 1);
          }
          const parentOf = (f: string) => (f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '');
          const folders = [...counts]
            .map(([f, n]) => ({ folder: f, entries: n, subfolders: [...counts.keys()].some((c) => parentOf(c) === f) }))
            .sort((x, y) => (x.folder < y.folder ? -1 : 1));
          expect(await allFolders(target, { limit })).toEqual(folders);
          // One level at a time (the console's tree): the folders whose parent it is, in the same order.
          for (const parent of ['', asked, ...folders.filter((f) => f.subfolders).map((f) => f.folder)])
            expect(await allFolders(target, { limit, parent })).toEqual(folders.filter((f) => parentOf(f.folder) === parent));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keeps entry_folders right when PATCHes move one entry concurrently', async () => {
    const db = w.db.prisma;
    const owner = await createTestOwner(db, 'race');
    const target = { ownerId: owner.id, sandbox: false };
    const { entry } = await createEntry({ actor: TEST_ACTOR, db, target, input: { folder: 'start/here', name: 'n', meta: {} } });
    for (let round = 0; round < 5; round++) {
      const moves = ['a/b', 'a/c', 'd', 'a/b/c/d', ''].map((folder) =>
        updateEntry({ actor: TEST_ACTOR, db, scope: { owners: 'all' }, id: entry.id, patch: { folder } }),
      );
      await Promise.all(moves);
      const { folder } = await db.entry.findUniqueOrThrow({ where: { id: entry.id } });
      const rows = await db.entryFolder.findMany({ where: { entryId: entry.id }, orderBy: { prefix: 'asc' } });
      const parts = folder.split('/');
      expect(rows.map((r) => r.prefix)).toEqual(folder === '' ? [] : parts.map((_, i) => parts.slice(0, i + 1).join('/')).sort());
      // The folder counts follow, with concurrent creates in the same folders beside the moves.
      await Promise.all(
        ['a/b', 'a/b/x', 'd', 'start/here'].map((f) =>
          createEntry({ actor: TEST_ACTOR, db, target, input: { folder: f, name: 'm', meta: {} } }),
        ),
      );
      expect(await countsDrift(owner.id)).toEqual([]);
    }
    // An entry deleted, and the whole workspace: every count goes with its entries.
    await deleteEntry({ db, store: w.store, scope: { owners: 'all' }, id: entry.id, actor: null });
    expect(await countsDrift(owner.id)).toEqual([]);
    await db.owner.delete({ where: { id: owner.id } });
    expect(await db.$queryRaw<unknown[]>`SELECT 1 FROM folder_counts WHERE owner_id = ${owner.id}::uuid`).toEqual([]);
  });

  /** The folder_counts rows of an owner that differ from counting its entry_folders afresh. */
  const countsDrift = (ownerId: string) =>
    w.db.prisma.$queryRaw<unknown[]>`
      SELECT * FROM (
        SELECT prefix, parent, entries FROM folder_counts WHERE owner_id = ${ownerId}::uuid
        EXCEPT SELECT prefix, folder_parent(prefix), count(*)::int FROM entry_folders WHERE owner_id = ${ownerId}::uuid GROUP BY prefix
      ) a UNION ALL SELECT * FROM (
        SELECT prefix, folder_parent(prefix), count(*)::int FROM entry_folders WHERE owner_id = ${ownerId}::uuid GROUP BY prefix
        EXCEPT SELECT prefix, parent, entries FROM folder_counts WHERE owner_id = ${ownerId}::uuid
      ) b`;

  it('reads a subtree page by one range of the entry_folders index, in list order (no sort)', async () => {
    const db = w.db.prisma;
    const owner = await createTestOwner(db, 'plan');
    const target = { ownerId: owner.id, sandbox: false };
    await createEntry({ actor: TEST_ACTOR, db, target, input: { folder: 'sales/2026', name: 'n', meta: {} } });
    const cursor = (await listEntries({ db, target, query: { limit: 1, folder: 'sales' } })).list[0];
    const { encodeCursor } = await import('../db/cursor');
    const plan = async (query: EntryListQuery) =>
      db.$transaction(async (tx) => {
        // Tiny tables: make the planner show whether the index can give the order, not what is cheapest here.
        await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
        await tx.$executeRaw`SET LOCAL enable_bitmapscan = off`;
        await tx.$executeRaw`SET LOCAL enable_sort = off`;
        const rows = await tx.$queryRaw<{ 'QUERY PLAN': string }[]>(Prisma.sql`EXPLAIN ${listSql(target, query)}`);
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      });
    const k = encodeCursor({ createdAt: new Date(cursor.created_at), id: cursor.id });
    for (const query of [
      { limit: 20, folder: 'sales' },
      { limit: 20, folder: 'sales', cursor: k },
    ]) {
      const p = await plan(query);
      expect(p).toMatch(/Index (Only )?Scan using entry_folders_owner_id_sandbox_prefix_created_at_entry_id_idx/);
      // No sort of the page (an entry's facts sort its own few current versions: entry-rows.ts).
      expect(p).not.toMatch(PAGE_SORT);
    }
    // An exact folder is a range of an entries index in list order: the folder one, or (on tables
    // this small, as the statistics fall) the owner's with the folder as a filter. Never a sort.
    const exact = await plan({ limit: 20, folder_exact: 'sales' });
    expect(exact).toMatch(/Index Scan using entries_owner_id_sandbox_(folder_)?created_at_id_idx/);
    expect(exact).not.toMatch(PAGE_SORT);
  });
});
