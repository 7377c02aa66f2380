// The run's template is what a start makes: a world copied from it has nothing left to migrate or
// apply (prisma/sql) and the schema, grants, rows and history of a database started from nothing,
// on both databases and with two roles.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../db/client';
import { migrate, readMigrations, type SqlRunner } from '../db/migrate';
import { testDatabases, testWorld, throwawayDatabase, type ThrowawayDatabase, type TestWorld } from './database';
import { loggedSoFar } from './log-capture';
import { testTemplates } from './templates';

// Everything the migrations and a start leave in the schema, one line each, the roles' names replaced.
const FINGERPRINT = `
  SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS l
    FROM information_schema.columns WHERE table_schema = current_schema()
  UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
  UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
  UNION ALL SELECT 'trigger ' || tgrelid::regclass || ' ' || tgname || ' ' || tgenabled::text || ' ' || tgfoid::regproc FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'function ' || oid::regprocedure || ' ' || md5(prosrc) || ' ' || prosecdef || ' ' || coalesce(array_to_string(proconfig, ','), '')
    || ' ' || pg_get_userbyid(proowner) || ' ' || coalesce(proacl::text, '') FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
  UNION ALL SELECT 'relation ' || relname || ' ' || relkind::text || ' ' || pg_get_userbyid(relowner) || ' ' || coalesce(relacl::text, '')
    || ' ' || coalesce(array_to_string(reloptions, ','), '') FROM pg_class WHERE relnamespace = current_schema()::regnamespace
  UNION ALL SELECT 'schema ' || nspname || ' ' || coalesce(nspacl::text, '') FROM pg_namespace WHERE oid = current_schema()::regnamespace
  UNION ALL SELECT 'migration ' || migration_name || ' ' || checksum || ' ' || (finished_at IS NOT NULL) FROM "_prisma_migrations"
  ORDER BY 1`;

async function fingerprint(db: Database, roles: Record<string, string> = {}): Promise<string[]> {
  const rows = await db.sql.query<{ l: string }>(FINGERPRINT, [], { prepare: false });
  const tables = await db.sql.query<{ t: string }>(
    `SELECT relname AS t FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p') ORDER BY 1`,
    [],
    { prepare: false },
  );
  // and what the tables hold (the migrations' own rows; the change log's, on PostgreSQL only)
  for (const { t } of tables) {
    const [{ n }] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${t}"`, [], { prepare: false });
    rows.push({ l: `rows ${t} ${n}` });
  }
  return rows.map((r) => Object.entries(roles).reduce((l, [as, role]) => l.replaceAll(role, as), r.l));
}

describe('the run has a migrated template', () => {
  it('made by the global setup for every test process', () => {
    const t = testTemplates();
    expect(t?.pgliteTarball).toMatch(/\.tgz$/);
    if (process.env.TEST_DATABASE_URL) expect(t?.postgres?.run).toMatch(/^[0-9a-f]{8}$/);
  });
});

for (const database of testDatabases())
  for (const twoRoles of database === 'postgres' ? [false, true] : [false])
    describe(`a world copied from the template (${database}${twoRoles ? ', two roles' : ''})`, () => {
      const open: { close(): Promise<void> }[] = [];
      afterAll(async () => {
        for (const o of open.reverse()) await o.close();
      });

      it('has nothing left to migrate, and what a database migrated from nothing has', async () => {
        const before = new Date();
        const w: TestWorld = await testWorld({ database, twoRoles });
        open.push(w);
        // every migration was in the template: none was applied by the world's open
        const [last] = await w.db.sql.query<{ at: Date }>('SELECT max(finished_at) AS at FROM "_prisma_migrations"', [], {
          prepare: false,
        });
        expect(last.at.getTime()).toBeLessThan(before.getTime());
        // and every rule of prisma/sql as written: the open applied none (the control below: a database from nothing logs it)
        const rulesApplied = () => loggedSoFar().filter((l) => l.msg === 'applied the database rules of prisma/sql').length;
        expect(rulesApplied()).toBe(0);
        if (database === 'postgres') expect(w.url).toContain(`_${testTemplates()?.postgres?.run}_`);
        // With two roles the owner migrates (the runtime role may create nothing).
        const owner = w.ownerUrl ? new pg.Client({ connectionString: w.ownerUrl }) : undefined;
        await owner?.connect();
        if (owner) open.push({ close: () => owner.end() });
        const sql: SqlRunner = owner
          ? { exec: async (s) => void (await owner.query(s)), query: async (s, p) => (await owner.query(s, p)).rows as never }
          : w.db.sql;
        expect(await migrate(sql, await readMigrations(), { lock: database === 'postgres' })).toEqual([]);

        const empty: ThrowawayDatabase | undefined = database === 'postgres' ? await throwawayDatabase(twoRoles) : undefined;
        if (empty) open.push({ close: () => empty.drop() });
        const fresh = await openDatabase({ url: empty?.url, ownerUrl: empty?.ownerUrl });
        open.push(fresh);
        expect(rulesApplied()).toBe(1);
        const expected = await fingerprint(fresh, empty?.roles);
        expect(expected.filter((l) => l.startsWith('migration ')).length).toBe((await readMigrations()).length);
        expect(await fingerprint(w.db, w.roles)).toEqual(expected);
      }, 120_000);
    });
