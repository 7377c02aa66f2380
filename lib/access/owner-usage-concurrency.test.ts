// Concurrent writers into one workspace (the small-request benchmark runs 32) on PostgreSQL: the
// counts stay exact, and no writer waits on a count row — a transaction holding one does not hold
// up another's write (migration owner_usage: FOR UPDATE SKIP LOCKED, else a row of its own).
// PostgreSQL only (PGlite has one connection: nothing runs concurrently there).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntry } from '../silo/create-entry';
import { deleteEntry } from '../silo/delete-entry';
import { createFile } from '../silo/files/create-file';
import { TEST_ACTOR } from '../testing/actor';
import { testWorld, type TestWorld } from '../testing/database';
import { parseFileInput, SMALL_BLOB_LIMITS } from '../testing/files';
import { createTestOwner } from '../testing/owner';
import { bothUsages, usageDrift } from '../testing/owner-usage';

const WRITERS = 20;

describe.skipIf(!process.env.TEST_DATABASE_URL)('owner usage under concurrent writers (postgres)', () => {
  let w: TestWorld;
  let pool: pg.Pool;
  beforeAll(async () => {
    w = await testWorld({ database: 'postgres' });
    pool = new pg.Pool({ connectionString: w.url, max: WRITERS });
    pool.on('error', () => {}); // a connection the database's drop ends, should a writer still wait then
  });
  afterAll(async () => {
    await w?.close(); // first: dropping the database ends any writer still waiting, so the pool can end
    await pool?.end();
  });
  const db = () => w.db.prisma;

  /** An entry with one small inline file, as POST /entries then POST …/files make it. */
  async function write(ownerId: string, sandbox: boolean, i: number) {
    const target = { ownerId, sandbox };
    const { entry } = await createEntry({ db: db(), target, input: { folder: 'in', name: `e${i}`, meta: {} }, actor: TEST_ACTOR });
    await createFile({
      db: db(),
      store: w.store,
      scope: { owners: [ownerId] },
      entryId: entry.id,
      input: parseFileInput({ name: `f${i}.txt`, data: Buffer.from('x'.repeat(i + 1)).toString('base64') }),
      limits: SMALL_BLOB_LIMITS,
    });
    return entry.id;
  }

  it(`counts ${WRITERS} concurrent creates and deletes of one workspace exactly`, async () => {
    const ownerId = (await createTestOwner(db(), 'busy')).id;
    const ids = await Promise.all(Array.from({ length: WRITERS }, (_, i) => write(ownerId, i % 4 === 0, i)));
    const made = await bothUsages(db(), [ownerId]);
    expect(made.counted).toEqual(made.aggregate);
    expect(made.counted[ownerId]).toEqual({ entries: WRITERS, files: WRITERS, bytes: (WRITERS * (WRITERS + 1)) / 2 });
    await Promise.all([
      ...ids.slice(0, WRITERS / 2).map((id) => deleteEntry({ db: db(), store: w.store, scope: { owners: 'all' }, id, actor: null })),
      ...Array.from({ length: WRITERS / 2 }, (_, i) => write(ownerId, false, WRITERS + i)),
    ]);
    const end = await bothUsages(db(), [ownerId]);
    expect(end.counted).toEqual(end.aggregate);
    expect(end.counted[ownerId]).toMatchObject({ entries: WRITERS, files: WRITERS });
  });

  it('lets every writer through while others hold count rows open, each on a row of its own', async () => {
    const ownerId = (await createTestOwner(db(), 'held-open')).id;
    await write(ownerId, false, 0); // a committed count row to contend for (uncommitted ones are invisible)
    let arrived = 0;
    let release!: () => void;
    const allIn = new Promise<void>((r) => {
      release = r;
    });
    // WRITERS transactions each insert an entry and a stored version, then wait for all the others
    // to have done so before committing: all hold their count rows at once.
    const holders = Array.from({ length: WRITERS }, async (_, i) => {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const entryId = randomUUID();
        await c.query(`INSERT INTO entries (id, owner_id, sandbox, name) VALUES ($1, $2, false, 'held')`, [entryId, ownerId]);
        await c.query(
          `WITH s AS (INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
             VALUES (gen_random_uuid(), $1, 'attachment', 'a', 1, $2) RETURNING id)
           INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce)
           SELECT $2, $1, s.id, 'a', 'attachment', 'text/plain', $3, 'h', true, 1, 'n' FROM s`,
          [entryId, randomUUID(), 10 + i],
        );
        if (++arrived === WRITERS) release();
        await allIn;
        await c.query('COMMIT');
      } finally {
        c.release();
      }
    });
    for (const h of holders) h.catch(() => {}); // awaited below; a failed test's waiters end with the database
    const waited = new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error(`${arrived} of ${WRITERS} writers got through: the others wait on a count row`)), 20_000).unref();
    });
    await Promise.race([allIn, waited]);
    // Meanwhile the API writes into the same workspace, as it would beside them: it must not wait.
    await write(ownerId, false, 0);
    await Promise.all(holders);
    const end = await bothUsages(db(), [ownerId]);
    expect(end.counted).toEqual(end.aggregate);
    expect(end.counted[ownerId]).toEqual({
      entries: WRITERS + 2,
      files: WRITERS + 2,
      bytes: WRITERS * 10 + (WRITERS * (WRITERS - 1)) / 2 + 2,
    });
    const [rows] = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM owner_usage WHERE owner_id = ${ownerId}::uuid`;
    expect(rows.n).toBeGreaterThanOrEqual(WRITERS);
    expect(rows.n).toBeLessThanOrEqual(WRITERS + 1);
    expect(await usageDrift(db())).toEqual([]);
  }, 60_000);
});
