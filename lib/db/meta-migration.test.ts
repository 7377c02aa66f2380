// Migration meta_in_written_order turns `meta` from jsonb into json on a database that holds data:
// every value survives (in the order jsonb had kept it), the default stays {}, and new values keep
// their order. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { randomBytes, randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate, readMigrations, type SqlRunner } from './migrate';

const TARGET = 'meta_in_written_order';

async function onPglite(use: (sql: SqlRunner) => Promise<void>) {
  const lite = new PGlite({ extensions: { pg_trgm } });
  try {
    await use({ exec: async (s) => void (await lite.exec(s)), query: async (s, p) => (await lite.query(s, p)).rows as never });
  } finally {
    await lite.close();
  }
}

async function onPostgres(use: (sql: SqlRunner) => Promise<void>) {
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `silo_meta_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  try {
    await use({ exec: async (s) => void (await c.query(s)), query: async (s, p) => (await c.query(s, p as unknown[])).rows as never });
  } finally {
    await c.end();
    await admin.query(`DROP DATABASE ${name}`);
    await admin.end();
  }
}

const runners = { pglite: onPglite, ...(process.env.TEST_DATABASE_URL ? { postgres: onPostgres } : {}) };

describe.each(Object.entries(runners))('migration %s', (_db, on) => {
  it('converts the jsonb meta already stored and keeps the order of meta written after it', () =>
    on(async (sql) => {
      const all = await readMigrations();
      const at = all.findIndex((m) => m.name.endsWith(TARGET));
      expect(at).toBeGreaterThan(0);
      await migrate(sql, all.slice(0, at), { lock: false });
      const owner = randomUUID();
      const before = randomUUID();
      await sql.exec(`INSERT INTO owners (id, name) VALUES ('${owner}', 'o')`);
      await sql.exec(
        `INSERT INTO entries (id, owner_id, sandbox, meta) VALUES ('${before}', '${owner}', false, '{"zeta": "1", "a": "2"}'), ('${randomUUID()}', '${owner}', false, DEFAULT)`,
      );
      expect(await migrate(sql, all.slice(at), { lock: false })).toEqual(all.slice(at).map((m) => m.name));

      const types = await sql.query<{ table_name: string; data_type: string; column_default: string }>(
        "SELECT table_name, data_type, column_default FROM information_schema.columns WHERE column_name = 'meta' ORDER BY table_name",
      );
      expect(types.map((t) => [t.table_name, t.data_type, t.column_default])).toEqual([
        ['entries', 'json', "'{}'::json"],
        ['files', 'json', "'{}'::json"],
      ]);
      // The stored value is the same object (jsonb had already sorted it: a before, zeta after).
      const old = await sql.query<{ meta: string }>(`SELECT meta::text AS meta FROM entries WHERE id = '${before}'`);
      expect(JSON.parse(old[0].meta)).toEqual({ a: '2', zeta: '1' });
      expect(await sql.query("SELECT meta::text AS meta FROM entries WHERE meta::text = '{}'")).toHaveLength(1);
      const after = randomUUID();
      await sql.exec(`INSERT INTO entries (id, owner_id, sandbox, meta) VALUES ('${after}', '${owner}', false, '{"zeta":"1","a":"2"}')`);
      const kept = await sql.query<{ meta: string }>(`SELECT meta::text AS meta FROM entries WHERE id = '${after}'`);
      expect(Object.keys(JSON.parse(kept[0].meta))).toEqual(['zeta', 'a']);
    }));
});
