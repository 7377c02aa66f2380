// What the server's own role (DATABASE_URL) may do when another role (DATABASE_OWNER_URL) owns the
// schema: the policy, in one place, and the step that applies it after the migrations on every
// start. Tables and functions added by later migrations fall under the default without an edit.
import type pg from 'pg';
import type { SqlRunner } from './migrate';

/**
 * The policy. Every table of the schema: SELECT, INSERT, UPDATE, DELETE (never TRUNCATE,
 * REFERENCES or TRIGGER), unless named below; every sequence: USAGE; the schema: USAGE, not CREATE.
 */
export const RUNTIME_POLICY: {
  appendOnly: readonly string[];
  appendOnlyGuards: readonly string[];
  readOnly: readonly string[];
  writtenThrough: Readonly<Record<string, readonly string[]>>;
} = {
  /**
   * Append-only: SELECT and INSERT. The tables named here, and any table one of these trigger
   * functions guards (the event log's migrations: an append-only table refuses UPDATE and DELETE
   * with them), so a later append-only table is covered by its trigger alone. A workspace's
   * deletion still cascades into them: PostgreSQL runs a foreign key's cascade as the table's owner.
   */
  appendOnly: ['events', 'checkpoints', 'checkpoint_timestamps', 'deleted_chains'],
  appendOnlyGuards: ['silo_events_append_only', 'silo_refuse_change'],
  /** Read-only: written by the owner's start alone (the migrations' history, the rules' record: sql-rules.ts). */
  readOnly: ['_prisma_migrations', '_sql_rules'],
  /**
   * Written only through these functions: the tables are SELECT-only, and every overload of each
   * function (by name: a later migration may change its parameters) runs as its owner
   * (SECURITY DEFINER, search_path pinned to the schema), executable by the runtime role only.
   */
  writtenThrough: { chain_heads: ['silo_append_events'] },
};

type Client = Pick<pg.ClientBase, 'query'>;

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Grants `runtime` what RUNTIME_POLICY says and nothing more, on the current schema. Idempotent
 * (everything is revoked and granted again, in one transaction): run after every start's
 * migrations, over the owner's connection, under the migrations' lock. `first`: a script run
 * before, in the same transaction (the database's rules, sql-rules.ts: a function they replace is
 * made SECURITY DEFINER again before anyone sees it without).
 */
export async function applyRuntimeGrants(owner: Client, runtime: string, first = ''): Promise<void> {
  await owner.query('BEGIN');
  try {
    if (first) await owner.query(first);
    for (const q of await grantStatements(owner, runtime)) await owner.query(q);
    await owner.query('COMMIT');
  } catch (err) {
    await owner.query('ROLLBACK').catch(() => {});
    throw err;
  }
}

async function grantStatements(owner: Client, runtime: string): Promise<string[]> {
  const [{ schema }] = (await owner.query<{ schema: string }>('SELECT current_schema() AS schema')).rows;
  const s = ident(schema);
  const r = ident(runtime);
  const tables = (
    await owner.query<{ name: string; guarded: boolean }>(
      `SELECT c.relname AS name,
              EXISTS (SELECT 1 FROM pg_trigger g JOIN pg_proc p ON p.oid = g.tgfoid
                      WHERE g.tgrelid = c.oid AND p.proname = ANY ($1::text[])) AS guarded
         FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')`,
      [RUNTIME_POLICY.appendOnlyGuards],
    )
  ).rows;
  const definers = Object.values(RUNTIME_POLICY.writtenThrough).flat();
  const functions = (
    await owner.query<{ signature: string }>(
      `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
        WHERE p.pronamespace = current_schema()::regnamespace AND p.proname = ANY ($1::text[])`,
      [definers],
    )
  ).rows;
  return [
    `REVOKE CREATE ON SCHEMA ${s} FROM PUBLIC, ${r}`,
    `GRANT USAGE ON SCHEMA ${s} TO ${r}`,
    `REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM PUBLIC, ${r}`,
    `REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${s} FROM PUBLIC, ${r}`,
    `GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`,
    ...tables.map((t) => `GRANT ${tablePrivileges(t.name, t.guarded)} ON ${s}.${ident(t.name)} TO ${r}`),
    ...functions.flatMap((f) => [
      `ALTER FUNCTION ${f.signature} SECURITY DEFINER SET search_path = ${s}, pg_temp`,
      `REVOKE ALL ON FUNCTION ${f.signature} FROM PUBLIC`,
      `GRANT EXECUTE ON FUNCTION ${f.signature} TO ${r}`,
    ]),
  ];
}

function tablePrivileges(table: string, guarded: boolean): string {
  if (RUNTIME_POLICY.readOnly.includes(table) || table in RUNTIME_POLICY.writtenThrough) return 'SELECT';
  if (guarded || RUNTIME_POLICY.appendOnly.includes(table)) return 'SELECT, INSERT';
  return 'SELECT, INSERT, UPDATE, DELETE';
}

/**
 * Why `runtime` may not run beside `owner`, or undefined: it is the same role, a superuser, a
 * member of the owner's role, or owns the schema or something in it (an install from before two
 * roles: docs/operations.md, Two database roles, says the SQL that hands it over).
 */
export async function runtimeRoleProblem(owner: Client, runtime: string): Promise<string | undefined> {
  const [who] = (
    await owner.query<{ owner: string; superuser: boolean; member: boolean; owns: string[] }>(
      `SELECT current_user AS owner, r.rolsuper AS superuser,
              pg_has_role($1::name, current_user, 'MEMBER') AS member,
              ARRAY(SELECT c.relname::text FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace
                       AND pg_has_role($1::name, c.relowner, 'USAGE')
                    UNION ALL SELECT p.proname::text FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace
                       AND pg_has_role($1::name, p.proowner, 'USAGE')
                    UNION ALL SELECT 'schema ' || n.nspname FROM pg_namespace n WHERE n.oid = current_schema()::regnamespace
                       AND pg_has_role($1::name, n.nspowner, 'USAGE')
                    LIMIT 4) AS owns
         FROM pg_roles r WHERE r.rolname = $1`,
      [runtime],
    )
  ).rows;
  const two = 'DATABASE_URL and DATABASE_OWNER_URL';
  if (who.owner === runtime) return `${two} name the same role (${runtime}): the server would own the tables it must not alter`;
  if (who.superuser)
    return `DATABASE_URL's role ${runtime} is a superuser: a superuser passes every grant; give the server an ordinary role`;
  if (who.member) return `DATABASE_URL's role ${runtime} is a member of DATABASE_OWNER_URL's role ${who.owner}: it could act as the owner`;
  if (who.owns.length)
    return `DATABASE_URL's role ${runtime} still owns ${who.owns.join(', ')}${who.owns.length === 4 ? ', …' : ''}: hand the schema to ${who.owner} once (as a superuser: REASSIGN OWNED BY ${runtime} TO ${who.owner}; docs/operations.md, Two database roles)`;
  return undefined;
}

/**
 * With one role on PostgreSQL: what that role can do because it owns the tables, as the start-up
 * warning says it; undefined when it owns none of them (someone else migrated and granted).
 */
export async function singleRoleWarning(sql: SqlRunner): Promise<string | undefined> {
  const [row] = await sql.query<{ owns: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace
                        AND c.relname = 'events' AND pg_has_role(current_user, c.relowner, 'USAGE')) AS owns`,
    [],
    { prepare: false },
  );
  if (!row.owns) return undefined;
  return (
    'the server runs as the role that owns its tables (no DATABASE_OWNER_URL): that role can disable or drop the triggers that guard ' +
    'retention, legal holds and the append-only event log, truncate any table, and alter or drop the schema; set DATABASE_OWNER_URL ' +
    'to migrate as another role (docs/operations.md, Two database roles)'
  );
}
