// What an open does to the schema before the first query: migrate and apply the database's rules
// (prisma/sql: sql-rules.ts) as the one role (as before two roles), or as the owner
// (DATABASE_OWNER_URL) over a connection of its own and then grant the server's role its privileges
// (runtime-grants.ts), or only check that nothing is left to migrate or apply (the scripts beside a
// two-role server: only the server's start migrates). Every open passes here: the server's, the
// scripts', the tests' (lib/testing/database.ts).
import pg from 'pg';
import { log } from '../log';
import { type Migration, migrate, type SqlRunner } from './migrate';
import { applyRuntimeGrants, runtimeRoleProblem } from './runtime-grants';
import { applyRules, type RuleFile, rulesProblem, rulesScript, staleRules } from './sql-rules';

export interface SchemaOptions {
  /** postgres://… of the role that owns the schema; the open's own role is then the runtime role */
  ownerUrl?: string;
  /** false: migrate nothing, refuse a database that lacks a migration (true unless false) */
  migrate?: boolean;
}

export async function prepareSchema(
  db: { kind: 'pglite' | 'postgres'; sql: SqlRunner },
  migrations: Migration[],
  rules: RuleFile[],
  o: SchemaOptions,
): Promise<void> {
  if (o.ownerUrl && db.kind === 'postgres') return migrateAsOwner(db.sql, migrations, rules, o.ownerUrl);
  if (o.migrate === false) return requireMigrated(db.sql, migrations, rules);
  // Under the migrations' lock on PostgreSQL: instances starting together never replace a rule at once.
  await migrate(db.sql, migrations, {
    lock: db.kind === 'postgres',
    afterward: async (applied) => {
      if (db.kind === 'postgres') await armChangeLog(db.sql);
      noteApplied(await applyRules(db.sql, rules, applied.length > 0));
    },
  });
}

function noteApplied(files: string[]): void {
  if (files.length) log.info({ files }, 'applied the database rules of prisma/sql');
}

/**
 * The owner's connection lives for the migrations, the rules, the grants and the re-arming of the
 * change log (ALTER TABLE needs the owner), all under the migrations' lock: instances starting
 * together never grant at once. The rules and the grants are one transaction: a function the rules
 * replace (silo_append_events) is SECURITY DEFINER again before anyone sees it.
 */
async function migrateAsOwner(runtimeSql: SqlRunner, migrations: Migration[], rules: RuleFile[], ownerUrl: string): Promise<void> {
  const [{ runtime }] = await runtimeSql.query<{ runtime: string }>('SELECT current_user::text AS runtime', [], { prepare: false });
  const owner = new pg.Client({ connectionString: ownerUrl });
  await owner.connect();
  try {
    const problem = await runtimeRoleProblem(owner, runtime);
    if (problem) throw new Error(problem);
    const sql = clientRunner(owner);
    await migrate(sql, migrations, {
      lock: true,
      afterward: async (applied) => {
        // First: a change-log trigger found disabled is re-armed with every table marked changed.
        await armChangeLog(sql);
        const stale = await staleRules(sql, rules, applied.length > 0);
        await applyRuntimeGrants(owner, runtime, rulesScript(stale));
        noteApplied(stale.map((f) => f.name));
      },
    });
  } finally {
    await owner.end().catch(() => {});
  }
}

async function requireMigrated(sql: SqlRunner, migrations: Migration[], rules: RuleFile[]): Promise<void> {
  const [{ history }] = await sql.query<{ history: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS history`, [], {
    prepare: false,
  });
  const rows = history
    ? await sql.query<{ migration_name: string }>(
        'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
        [],
        { prepare: false },
      )
    : [];
  const done = new Set(rows.map((r) => r.migration_name));
  const missing = migrations.filter((m) => !done.has(m.name));
  if (missing.length)
    throw new Error(
      `the database lacks ${missing.length} migration(s), the first ${missing[0].name}: start the server once (it migrates as DATABASE_OWNER_URL)`,
    );
  const problem = await rulesProblem(sql, rules);
  if (problem) throw new Error(problem);
}

/**
 * Makes the read cache's change-log triggers ALWAYS again if something disabled them (a data-only
 * restore with triggers disabled): arm_cache_change_log, prisma/sql/change-log.sql.
 */
async function armChangeLog(sql: SqlRunner): Promise<void> {
  const [row] = await sql.query<{ n: number }>('SELECT arm_cache_change_log() AS n', [], { prepare: false });
  if (row.n) log.warn({ triggers: row.n }, 'the read cache change-log triggers were disabled; enabled again (ALWAYS)');
}

const clientRunner = (c: pg.Client): SqlRunner => ({
  exec: async (text) => void (await c.query(text)),
  query: async <T>(text: string, params?: unknown[]) => (await c.query(text, params)).rows as T[],
});
