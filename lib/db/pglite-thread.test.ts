// The embedded database on its own thread (pglite-thread.ts, pglite-worker.mjs): the server's
// thread keeps running while PGlite works, and the guarantees of one PGlite session hold through
// the wire protocol — a transaction whole while other callers wait, PostgreSQL's error fields,
// bytes both ways, a connection lost inside a transaction rolled back, named statements each
// connection's own, writes kept across a close.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { expectLogged } from '../testing/log-capture';
import { openDatabase } from './client';
import { startPgliteThread } from './pglite-thread';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('PGlite on its own thread', () => {
  it('leaves the event loop running while a statement runs', async () => {
    const thread = await startPgliteThread();
    try {
      await thread.pool.query('SELECT 1');
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      const started = Date.now();
      // About a second of work inside PGlite; on this thread the loop would not turn once: its
      // timer would run once at most, after the answer.
      await thread.pool.query('SELECT count(*) FROM generate_series(1, 2000000) g WHERE g % 7 = 3');
      clearInterval(timer);
      expect(Date.now() - started).toBeGreaterThan(100);
      expect(ticks).toBeGreaterThanOrEqual(3);
    } finally {
      await thread.close();
    }
  });

  it('keeps a transaction whole while other statements wait, and rolls back one whose connection is lost', async () => {
    const thread = await startPgliteThread();
    const { pool } = thread;
    try {
      await pool.query('CREATE TABLE t (n int PRIMARY KEY)');
      const tx = await pool.connect();
      await tx.query('BEGIN');
      await tx.query('INSERT INTO t VALUES (1)');
      // Sent while the transaction is open: it runs after it, and sees all of it or none.
      const outside = pool.query<{ c: string }>('SELECT count(*)::text AS c FROM t');
      await vi.waitFor(() => expect(pool.waitingCount).toBe(1)); // queued behind the transaction
      await tx.query('INSERT INTO t VALUES (2)');
      await tx.query('COMMIT');
      tx.release();
      expect((await outside).rows[0].c).toBe('2');

      const lost = await pool.connect();
      await lost.query('BEGIN');
      await lost.query('INSERT INTO t VALUES (3)');
      lost.release(new Error('gone')); // destroys the connection inside its transaction
      const { rows } = await pool.query<{ n: number }>('SELECT n FROM t ORDER BY n');
      expect(rows.map((r) => r.n)).toEqual([1, 2]);
    } finally {
      await thread.close();
    }
  });

  it("answers PostgreSQL's error fields and carries bytes both ways", async () => {
    const thread = await startPgliteThread();
    const { pool } = thread;
    try {
      await pool.query('CREATE TABLE b (id int CONSTRAINT b_id_key PRIMARY KEY, data bytea)');
      const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
      await pool.query('INSERT INTO b VALUES (1, $1)', [bytes]);
      const err = await pool.query('INSERT INTO b VALUES (1, NULL)').catch((e) => e);
      expect(err).toMatchObject({ code: '23505', constraint: 'b_id_key' });
      const { rows } = await pool.query<{ data: Buffer }>('SELECT data FROM b WHERE id = 1');
      expect(Buffer.compare(rows[0].data, bytes)).toBe(0);
      // and the session goes on after the error
      expect((await pool.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
    } finally {
      await thread.close();
    }
  });

  it("keeps each connection's named statements its own, and deallocates them once it is gone (not inside another's transaction)", async () => {
    const thread = await startPgliteThread();
    // Two connections at once (the pool has one): as two pools, or a pool's old and new connection.
    const connect = async () => {
      const stream = (thread.pool as unknown as { options: { stream: () => never } }).options.stream;
      const c = new pg.Client({ user: 'postgres', database: 'postgres', stream });
      await c.connect();
      return c;
    };
    const names = async (c: pg.Client) =>
      (await c.query<{ name: string }>("SELECT name FROM pg_prepared_statements WHERE name LIKE 'same%' ORDER BY name")).rows.map(
        (r) => r.name,
      );
    const a = await connect();
    const b = await connect();
    try {
      const run = async (c: pg.Client, text: string) => (await c.query<{ n: number }>({ name: 'same', text })).rows[0].n;
      expect(await run(a, 'SELECT 1 AS n')).toBe(1);
      expect(await run(b, 'SELECT 2 AS n')).toBe(2); // the same name, another text: no "already exists"
      expect([await run(a, 'SELECT 1 AS n'), await run(b, 'SELECT 2 AS n')]).toEqual([1, 2]);
      const both = await names(b);
      expect(both).toHaveLength(2);
      expect(both.every((n) => /^same_c\d+$/.test(n))).toBe(true);
      // b's transaction, failed, is open while a goes: a's statement waits for it to end.
      await b.query('BEGIN');
      await expect(b.query('SELECT 1/0')).rejects.toThrow(/division by zero/);
      await a.end();
      await new Promise((r) => setTimeout(r, 50));
      await b.query('ROLLBACK');
      const left = await names(b);
      expect(left).toHaveLength(1);
      expect(await run(b, 'SELECT 2 AS n')).toBe(2);
      expect(both).toContain(left[0]);
    } finally {
      await b.end().catch(() => {});
      await thread.close();
    }
  });

  it('fails the statements in flight, and every later one, when the thread ends: none waits for ever', async () => {
    expectLogged(/^the embedded database's thread failed$/);
    const thread = await startPgliteThread();
    try {
      await thread.pool.query('SELECT 1');
      const inFlight = thread.pool.query('SELECT count(*) FROM generate_series(1, 20000000)').then(
        () => 'answered',
        (err: Error) => err.message,
      );
      await vi.waitFor(() => expect(thread.pool.idleCount).toBe(0)); // its connection taken: sent
      await thread.worker.terminate();
      expect(await inFlight).toMatch(/thread ended|terminated|failed/);
      await expect(thread.pool.query('SELECT 1')).rejects.toThrow(/thread ended/);
    } finally {
      await thread.close().catch(() => {});
    }
  });

  it('keeps every acknowledged write across a close and a new start on the same directory', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'silo-pglite-thread-'));
    dirs.push(dir);
    const first = await openDatabase({ dataDir: dir });
    const owner = await first.prisma.owner.create({ data: { id: randomUUID(), name: 'kept' } });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        first.prisma.entry.create({ data: { id: randomUUID(), ownerId: owner.id, sandbox: false, name: `e${i}` } }),
      ),
    );
    await first.close();
    const second = await openDatabase({ dataDir: dir });
    try {
      expect(await second.prisma.entry.count({ where: { ownerId: owner.id } })).toBe(20);
    } finally {
      await second.close();
    }
  });
});
