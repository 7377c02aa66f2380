// The storage-used read no longer grows with the workspace (issue 25): at thousands of entries its
// plan reads owner_usage's few rows by the primary key and nothing of entries or files (EXPLAIN
// ANALYZE, so what is pinned is what ran; PGlite, and PostgreSQL when TEST_DATABASE_URL is set).
// And migration owner_usage counts what was written before it, as the old aggregate did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedBefore, testId } from '../testing/migrated-before';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { createTestOwner } from '../testing/owner';
import { bothUsages } from '../testing/owner-usage';
import { ownerUsageSql } from './owner-usage';
import { explainAnalyzed, planNodes } from '../testing/plan-nodes';

const N = 5_000;

/** `n` entries of one workspace by SQL, each with a stored version of 10 bytes and a placeholder. */
const fill = (ownerId: string, n: number) => `
  WITH e AS (
    INSERT INTO entries (id, owner_id, sandbox, name) SELECT gen_random_uuid(), '${ownerId}', g % 2 = 0, 'n'
    FROM generate_series(1, ${n}) g RETURNING id),
  s AS (INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
    SELECT gen_random_uuid(), e.id, 'attachment', 'i.xml', 1, gen_random_uuid() FROM e RETURNING id, entry_id, current_id)
  INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce)
  SELECT s.current_id, s.entry_id, s.id, 'i.xml', 'attachment', 'application/xml', 10, 'h', true, 1, 'n' FROM s
  UNION ALL SELECT gen_random_uuid(), s.entry_id, s.id, 'p.xml', 'attachment', 'application/xml', 99, 'h', false, NULL, 'n' FROM s`;

describe.each(testDatabases())('owner usage read at scale (%s)', (database) => {
  let w: TestWorld;
  let big: string;
  let small: string;
  beforeAll(async () => {
    w = await testWorld({ database });
    big = (await createTestOwner(w.db.prisma, 'big')).id;
    small = (await createTestOwner(w.db.prisma, 'small')).id;
    await w.db.sql.exec(fill(big, N));
    await w.db.sql.exec(fill(small, 10));
    for (const t of ['entries', 'files', 'owner_usage']) await w.db.sql.exec(`ANALYZE ${t}`);
  }, 120_000);
  afterAll(() => w.close());

  it('reads a page of owners from owner_usage alone, a few rows, whatever their size', async () => {
    const plan = await explainAnalyzed(w.db.prisma, ownerUsageSql([big, small]));
    const scans = planNodes(plan).filter((n) => n['Relation Name']);
    expect(scans.map((n) => n['Relation Name'])).toEqual(['owner_usage']);
    const read = scans.reduce((sum, n) => sum + (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0)) * n['Actual Loops'], 0);
    expect(read).toBeLessThan(20);
    const { counted, aggregate } = await bothUsages(w.db.prisma, [big, small]);
    expect(counted).toEqual(aggregate);
    expect(counted[big]).toEqual({ entries: N, files: N, bytes: N * 10 });
  });
});

describe('the owner_usage migration', () => {
  it('backfills the counts of what was written before it, by workspace and environment', async () => {
    const { sql, migrateRest, close } = await migratedBefore('owner_usage');
    const id = testId;
    try {
      await sql.query(`INSERT INTO owners (id, name) VALUES ($1, 'a'), ($2, 'b'), ($3, 'empty')`, [id(1), id(2), id(3)]);
      await sql.exec(fill(id(1), 7));
      await sql.exec(fill(id(2), 3));
      await migrateRest();
      const rows = await sql.query<{ owner_id: string; sandbox: boolean; entries: string; files: string; bytes: string }>(
        `SELECT owner_id::text, sandbox, sum(entries)::text AS entries, sum(files)::text AS files, sum(bytes)::text AS bytes
           FROM owner_usage GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      expect(rows).toEqual([
        { owner_id: id(1), sandbox: false, entries: '4', files: '4', bytes: '40' },
        { owner_id: id(1), sandbox: true, entries: '3', files: '3', bytes: '30' },
        { owner_id: id(2), sandbox: false, entries: '2', files: '2', bytes: '20' },
        { owner_id: id(2), sandbox: true, entries: '1', files: '1', bytes: '10' },
      ]);
    } finally {
      await close();
    }
  });
});
