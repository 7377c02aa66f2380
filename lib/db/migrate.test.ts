import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, readMigrations, type SqlRunner } from './migrate';

const lite = new PGlite({ extensions: { pg_trgm } });
const sql: SqlRunner = { exec: async (s) => void (await lite.exec(s)), query: async (s, p) => (await lite.query(s, p)).rows as never };
afterAll(() => lite.close());

describe('migrate', () => {
  it("applies the checked-in migrations once, in order, into Prisma's history table", async () => {
    const migrations = await readMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    expect(await migrate(sql, migrations, { lock: false })).toEqual(migrations.map((m) => m.name));
    expect(await migrate(sql, migrations, { lock: false })).toEqual([]);
    const history = await sql.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(history).toEqual(migrations.map((m) => ({ migration_name: m.name, checksum: m.checksum })));
    const tables = await sql.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    expect(tables.map((t) => t.tablename)).toEqual(expect.arrayContaining(['owners', 'entries', 'files', 'file_slots', 'blobs', 'users']));
  });

  it('rolls a failing migration back whole and records nothing for it', async () => {
    const bad = { name: '99999999999999_bad', sql: 'CREATE TABLE half_done (x int); SELECT no_such_function();', checksum: 'x' };
    await expect(migrate(sql, [bad], { lock: false })).rejects.toThrow();
    expect(await sql.query("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'")).toEqual([]);
    expect(await sql.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '${bad.name}'`)).toEqual([]);
  });
});
