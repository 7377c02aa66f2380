// A cached read may read only the tables it names: the machine checks it (declared-reads.ts), on
// both databases, for the cached reads the app makes and for one that lies about its tables.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEntry } from '../silo/find-entry';
import { listEntries } from '../silo/list-entries';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestEntry } from '../testing/owner';
import { readCacheOf } from './client';
import { tablesOfMigrations, tablesRead } from './declared-reads';
import { readMigrations } from './migrate';

describe('tablesRead', () => {
  const known = new Set(['entries', 'files', 'entry_folders', 'api_keys', 'enrollments']);

  it('finds the tables after FROM and JOIN, quoted, schema-qualified or not', () => {
    const sql = `SELECT "public"."entries"."id" FROM "public"."entries" LEFT JOIN LATERAL (SELECT 1 FROM "public"."files" AS "t1") AS x ON true JOIN api_keys k ON true`;
    expect([...tablesRead(sql, known)].sort()).toEqual(['api_keys', 'entries', 'files']);
  });

  it('skips its own WITH names, function calls, string literals and names that are no table', () => {
    const sql = `WITH entries AS (SELECT 1), page AS MATERIALIZED (SELECT * FROM entry_folders)
      SELECT extract(epoch FROM created_at), 'FROM files' FROM entries, unnest($1::text[]) JOIN page ON true`;
    expect([...tablesRead(sql, known)]).toEqual(['entry_folders']);
  });

  it('knows every table the migrations create', async () => {
    const tables = tablesOfMigrations((await readMigrations()).map((m) => m.sql));
    for (const t of ['entries', 'files', 'file_slots', 'api_keys', 'enrollment_tokens', 'blobs', 'cache_changes'])
      expect(tables).toContain(t);
  });
});

describe.each(testDatabases())('cached reads on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());

  it('passes for the reads the app caches (the API suites run every other one with the check on)', async () => {
    const { scope, entryId } = await createTestEntry(w.db.prisma);
    expect((await findEntry({ db: w.db.prisma, scope, id: entryId })).id).toBe(entryId);
    const target = { ownerId: scope.owners[0], sandbox: false };
    const page = await listEntries({ db: w.db.prisma, target, query: { limit: 20, q: 'e' } });
    expect(page.list.map((e) => e.id)).toEqual([entryId]);
  });

  it('fails a read whose statement touches a table it did not declare', async () => {
    const read = readCacheOf(w.db.prisma).read(['entries'], `lie ${randomUUID()}`, () => w.db.prisma.file.findMany({ take: 1 }));
    await expect(read).rejects.toThrow(/declared \[entries\] but reads files/);
    // declared, it passes
    await expect(
      readCacheOf(w.db.prisma).read(['files'], `truth ${randomUUID()}`, () => w.db.prisma.file.findMany({ take: 1 })),
    ).resolves.toEqual([]);
  });
});
