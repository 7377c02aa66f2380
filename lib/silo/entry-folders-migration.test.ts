// The entry_folders migration: entries written before it get their folder rows (the backfill),
// and the trigger keeps them after it, for the odd folders too ('/a', 'a/', 'a//b').
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations, type SqlRunner } from '../db/migrate';

const lite = new PGlite({ extensions: { pg_trgm } });
const sql: SqlRunner = { exec: async (s) => void (await lite.exec(s)), query: async (s, p) => (await lite.query(s, p)).rows as never };
afterAll(() => lite.close());

const OWNER = '00000000-0000-4000-8000-000000000001';
const prefixes = async (id: string) =>
  (await sql.query<{ prefix: string }>('SELECT prefix FROM entry_folders WHERE entry_id = $1 ORDER BY prefix', [id])).map((r) => r.prefix);

describe('the entry_folders migration', () => {
  it('backfills the entries before it; the trigger follows inserts, folder changes and deletes after it', async () => {
    const all = await readMigrations();
    const at = all.findIndex((m) => m.name.endsWith('_entry_folders'));
    expect(at).toBeGreaterThan(0);
    await migrate(sql, all.slice(0, at), { lock: false });
    await sql.query('INSERT INTO owners (id, name) VALUES ($1, $2)', [OWNER, 'o']);
    const folders = ['', 'a', 'a/b/c', '/a', 'a/', 'a//b'];
    const ids = folders.map((_, i) => `00000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`);
    for (const [i, f] of folders.entries())
      await sql.query('INSERT INTO entries (id, owner_id, sandbox, folder) VALUES ($1, $2, false, $3)', [ids[i], OWNER, f]);

    await migrate(sql, all, { lock: false });
    const expected = [[], ['a'], ['a', 'a/b', 'a/b/c'], ['/a'], ['a', 'a/'], ['a', 'a/', 'a//b']];
    for (const [i] of folders.entries()) expect(await prefixes(ids[i])).toEqual(expected[i]);

    // After it: a new entry, a moved one, one whose time changes, a deleted one.
    const fresh = '00000000-0000-4000-8000-000000000200';
    await sql.query('INSERT INTO entries (id, owner_id, sandbox, folder) VALUES ($1, $2, true, $3)', [fresh, OWNER, 'x/y']);
    expect(await prefixes(fresh)).toEqual(['x', 'x/y']);
    await sql.query("UPDATE entries SET folder = 'q' WHERE id = $1", [ids[2]]);
    expect(await prefixes(ids[2])).toEqual(['q']);
    await sql.query("UPDATE entries SET name = 'renamed' WHERE id = $1", [ids[2]]);
    expect(await prefixes(ids[2])).toEqual(['q']);
    await sql.query("UPDATE entries SET created_at = '2020-01-01Z' WHERE id = $1", [fresh]);
    const rows = await sql.query<{ created_at: Date; sandbox: boolean }>(
      'SELECT created_at, sandbox FROM entry_folders WHERE entry_id = $1',
      [fresh],
    );
    expect(rows.map((r) => [r.created_at.toISOString(), r.sandbox])).toEqual([
      ['2020-01-01T00:00:00.000Z', true],
      ['2020-01-01T00:00:00.000Z', true],
    ]);
    await sql.query('DELETE FROM entries WHERE id = $1', [fresh]);
    expect(await prefixes(fresh)).toEqual([]);
  });
});
