// Named statements (prepared.ts): on PostgreSQL a statement sent past Prisma is prepared once per
// connection under the hash of its text, and answers as it would unnamed — also after a schema
// change altered its result (sent again unnamed); on the embedded database (one session shared by
// its connections) under names of each connection's own; with DATABASE_PREPARED_STATEMENTS=false,
// nothing is prepared. At most MAX_NAMED texts get a name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testWorld, type TestWorld } from '../testing/database';
import { openDatabase } from './client';
import { MAX_NAMED, statementName } from './prepared';

const PREPARED = `SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'silo\\_%'`;

describe.skipIf(!process.env.TEST_DATABASE_URL)('named statements on PostgreSQL', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database: 'postgres' });
  });
  afterAll(() => w?.close());

  it('prepares a statement under the hash of its text, and answers as unnamed', async () => {
    const text = 'SELECT $1::int + 1 AS n';
    expect(await w.db.sql.query(text, [41])).toEqual([{ n: 42 }]);
    expect(await w.db.sql.query(text, [1])).toEqual([{ n: 2 }]);
    // one connection answers these one after another: it holds both statements, prepared
    const prepared = await w.db.sql.query<{ name: string; statement: string }>(PREPARED);
    expect(prepared).toContainEqual({ name: statementName(text), statement: text });
    expect(statementName(text)).toMatch(/^silo_[0-9a-f]{24}$/);
  });

  it('sends a statement again unnamed when a schema change altered its result', async () => {
    await w.db.sql.exec('CREATE TABLE prepared_shape (a int); INSERT INTO prepared_shape VALUES (1)');
    const text = 'SELECT * FROM prepared_shape';
    expect(await w.db.sql.query(text)).toEqual([{ a: 1 }]);
    const [{ altered }] = await w.db.sql.query<{ altered: Date }>('SELECT clock_timestamp() AS altered');
    await w.db.sql.exec('ALTER TABLE prepared_shape ADD COLUMN b int DEFAULT 2');
    expect(await w.db.sql.query(text)).toEqual([{ a: 1, b: 2 }]);
    // The pool ends a connection whose statement failed, so the stale plan goes with it: the next
    // call prepares the text again, on a new connection, and runs it named.
    expect(await w.db.sql.query(text)).toEqual([{ a: 1, b: 2 }]);
    const [again] = await w.db.sql.query<{ prepared: Date }>(
      'SELECT prepare_time AS prepared FROM pg_prepared_statements WHERE name = $1',
      [statementName(text)],
    );
    expect(again.prepared.getTime()).toBeGreaterThan(altered.getTime());
  });

  it('prepares nothing with DATABASE_PREPARED_STATEMENTS=false', async () => {
    const db = await openDatabase({ url: w.url, preparedStatements: false });
    try {
      expect(await db.sql.query('SELECT 7 AS n')).toEqual([{ n: 7 }]);
      expect(await db.sql.query(PREPARED)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe('named statements on the embedded database', () => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database: 'pglite' });
  });
  afterAll(() => w?.close());

  it("prepares a statement under its name and the connection's, and again on the pool's next connection", async () => {
    const text = 'SELECT $1::int * 2 AS n';
    expect(await w.db.sql.query(text, [3])).toEqual([{ n: 6 }]);
    expect(await w.db.sql.query(text, [4])).toEqual([{ n: 8 }]);
    const named = async () =>
      (await w.db.sql.query<{ name: string }>(PREPARED)).map((r) => r.name).filter((n) => n.startsWith(`${statementName(text)}_c`));
    const [first] = await named();
    expect(first).toMatch(/^silo_[0-9a-f]{24}_c\d+$/);
    // A failed statement ends the pool's one connection (pg-pool): the next is another connection,
    // which prepares the same text under its own name, while the first's is deallocated.
    await expect(w.db.sql.query('SELECT 1/0')).rejects.toThrow(/division by zero/);
    expect(await w.db.sql.query(text, [5])).toEqual([{ n: 10 }]);
    expect(await named()).toEqual([expect.not.stringMatching(new RegExp(`^${first}$`))]);
  });

  it('prepares nothing with DATABASE_PREPARED_STATEMENTS=false', async () => {
    const db = await openDatabase({ preparedStatements: false });
    try {
      expect(await db.sql.query('SELECT 7 AS n')).toEqual([{ n: 7 }]);
      expect(await db.sql.query(PREPARED)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe('statement names', () => {
  it('names one text one way, and no more than MAX_NAMED texts', () => {
    const first = statementName('SELECT 1 AS first');
    expect(statementName('SELECT 1 AS first')).toBe(first);
    expect(statementName('SELECT 2 AS other')).not.toBe(first);
    for (let i = 0; i < MAX_NAMED; i++) statementName(`SELECT ${i} AS filler`);
    expect(statementName('SELECT 3 AS late')).toBeUndefined();
    expect(statementName('SELECT 1 AS first')).toBe(first);
  });
});
