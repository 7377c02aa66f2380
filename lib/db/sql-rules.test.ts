// The database's rules (prisma/sql, sql-rules.ts): the files reproduce exactly what the migrations
// made (but the rules changed since, named), a started database holds exactly the files, every
// function and trigger of the schema is in exactly one file, applying them is repeatable, and a
// start applies again what is changed, missing or disabled — on both databases.
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { throwawayDatabase, testDatabases, type TestDatabase, testWorld } from '../testing/database';
import { migrate, readMigrations, type SqlRunner } from './migrate';
import { applyRules, definedIn, readRules, type RuleFile } from './sql-rules';

/** A new database with the migrations applied and nothing else. */
async function migratedOnly(kind: TestDatabase): Promise<{ sql: SqlRunner; close(): Promise<void> }> {
  let sql: SqlRunner;
  let close: () => Promise<void>;
  if (kind === 'pglite') {
    const lite = new PGlite({ extensions: { pg_trgm } });
    sql = { exec: async (s) => void (await lite.exec(s)), query: async (s, p) => (await lite.query(s, p)).rows as never };
    close = () => lite.close();
  } else {
    const d = await throwawayDatabase();
    const c = new pg.Client({ connectionString: d.url });
    await c.connect();
    sql = { exec: async (s) => void (await c.query(s)), query: async (s, p) => (await c.query(s, p)).rows as never };
    close = async () => {
      await c.end();
      await d.drop();
    };
  }
  await migrate(sql, await readMigrations(), { lock: false });
  return { sql, close };
}

/** The schema's objects a rule file may define: functions (not an extension's) and triggers. */
const OBJECTS = `
  SELECT 'function ' || p.proname AS id, p.oid::regprocedure::text AS signature, pg_get_functiondef(p.oid) AS def,
         obj_description(p.oid, 'pg_proc') AS comment, p.proacl::text AS acl, p.xmin::text AS xmin
    FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace
     AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  UNION ALL
  SELECT 'trigger ' || c.relname || '.' || g.tgname, NULL, pg_get_triggerdef(g.oid) || ' ENABLED ' || g.tgenabled::text,
         obj_description(g.oid, 'pg_trigger'), NULL, g.xmin::text
    FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
   WHERE c.relnamespace = current_schema()::regnamespace AND NOT g.tgisinternal
  ORDER BY 1, 2`;

type DbObject = { id: string; signature: string | null; def: string; comment: string | null; acl: string | null; xmin: string };

async function objects(sql: SqlRunner): Promise<Omit<DbObject, 'xmin'>[]> {
  return (await sql.query<DbObject>(OBJECTS)).map(({ xmin: _, ...o }) => o);
}

/** What each file defines, as the database sees it: each applied in a transaction of its own, the objects that transaction wrote. */
async function writtenBy(sql: SqlRunner, files: RuleFile[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const f of files) {
    await sql.exec(`BEGIN;\n${f.sql}`);
    const [{ xid }] = await sql.query<{ xid: string }>('SELECT pg_current_xact_id()::xid::text AS xid');
    out.set(
      f.name,
      (await sql.query<DbObject>(OBJECTS)).filter((o) => o.xmin === xid).map((o) => o.id),
    );
    await sql.exec('COMMIT');
  }
  return out;
}

/**
 * The rules (`function name`, `trigger table.name`) whose file changed or added them since the
 * migrations last defined them: a database migrated only holds an older text of these, or none.
 * Name one here as you change it in its file. Every other rule must be exactly what the migrations
 * made: a migration that redefines a rule fails here (write the change in the rule's file instead).
 */
const CHANGED_SINCE_MIGRATIONS: string[] = [];

const defined = (f: RuleFile) => [...f.functions.map((n) => `function ${n}`), ...f.triggers.map((t) => `trigger ${t.table}.${t.name}`)];

describe.each(testDatabases())('the rules of prisma/sql (%s)', (kind) => {
  let db: Awaited<ReturnType<typeof migratedOnly>>;
  let files: RuleFile[];
  beforeAll(async () => {
    db = await migratedOnly(kind);
    files = await readRules();
  }, 60_000);
  afterAll(() => db?.close());

  it('reproduce exactly what the migrations made (every function and trigger, its state and comment), but what changed since', async () => {
    const migrated = await objects(db.sql);
    expect(migrated.length).toBeGreaterThan(90);
    expect(await applyRules(db.sql, files, true)).toEqual(files.map((f) => f.name));
    const applied = await objects(db.sql);
    const unchanged = (o: { id: string }) => !CHANGED_SINCE_MIGRATIONS.includes(o.id);
    expect(applied.filter(unchanged)).toEqual(migrated.filter(unchanged));
    const text = new Map(migrated.map((o) => [o.signature ?? o.id, JSON.stringify(o)]));
    const changed = applied.filter((o) => text.get(o.signature ?? o.id) !== JSON.stringify(o)).map((o) => o.id);
    expect(changed.sort()).toEqual([...CHANGED_SINCE_MIGRATIONS].sort());
  });

  it('are what a started database holds (openDatabase): applying them again changes nothing', async () => {
    const w = await testWorld({ database: kind });
    try {
      const started = await objects(w.db.sql);
      const record = await w.db.sql.query<{ file: string; checksum: string }>('SELECT file, checksum FROM "_sql_rules" ORDER BY file');
      expect(record).toEqual(files.map((f) => ({ file: f.name, checksum: f.checksum })));
      expect(await applyRules(w.db.sql, files, true)).toHaveLength(files.length);
      expect(await objects(w.db.sql)).toEqual(started);
    } finally {
      await w.close();
    }
  }, 60_000);

  it('hold every function and trigger in exactly one file, each defined once, as the start reads them', async () => {
    const written = await writtenBy(db.sql, files);
    const everything = (await objects(db.sql)).map((o) => o.id);
    const owners = new Map<string, string[]>();
    for (const f of files) {
      // what the start reads from the file (its check of what is missing) is what applying it writes
      expect([f.name, [...defined(f)].sort()]).toEqual([f.name, [...(written.get(f.name) ?? [])].sort()]);
      expect([f.name, defined(f).filter((id, i, all) => all.indexOf(id) !== i)]).toEqual([f.name, []]);
      for (const id of defined(f)) owners.set(id, [...(owners.get(id) ?? []), f.name]);
    }
    expect(everything.filter((id) => owners.get(id)?.length !== 1).map((id) => [id, owners.get(id) ?? []])).toEqual([]);
    expect([...owners.keys()].filter((id) => !everything.includes(id))).toEqual([]);
  });

  it('apply again and again to the same result; a start applies only what is changed, missing or disabled', async () => {
    const before = await objects(db.sql);
    expect(await applyRules(db.sql, files, true)).toHaveLength(files.length);
    expect(await applyRules(db.sql, files, true)).toHaveLength(files.length);
    expect(await objects(db.sql)).toEqual(before);
    expect(await applyRules(db.sql, files, false)).toEqual([]);

    await db.sql.exec(`UPDATE "_sql_rules" SET checksum = 'edited' WHERE file = 'usage.sql'`);
    await db.sql.exec('ALTER TABLE files DISABLE TRIGGER compliance_retained');
    await db.sql.exec('ALTER TABLE entries ENABLE TRIGGER legal_hold_entry'); // origin only: not its ALWAYS
    await db.sql.exec('DROP FUNCTION entry_search_entries_inserted() CASCADE');
    expect(await applyRules(db.sql, files, false)).toEqual(['retention.sql', 'search.sql', 'usage.sql']);
    expect(await objects(db.sql)).toEqual(before);
    expect(await applyRules(db.sql, files, false)).toEqual([]);
  });

  it('leave nothing half-applied when a file fails, and the connection usable', async () => {
    const before = await objects(db.sql);
    const broken: RuleFile = { ...files[0], name: 'broken.sql', sql: `${files[0].sql}\nSELECT no_such_function();`, checksum: 'broken' };
    await expect(applyRules(db.sql, [broken, ...files.slice(1)], true)).rejects.toThrow(/no_such_function/);
    // the transaction was rolled back: the connection answers, and nothing of the files was recorded
    const [row] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "_sql_rules" WHERE file = 'broken.sql'`);
    expect(row.n).toBe(0);
    expect(await objects(db.sql)).toEqual(before);
  });
});

describe('definedIn', () => {
  it('reads functions, triggers and their ALWAYS from the statements, not from comments', () => {
    const sql = `-- CREATE OR REPLACE FUNCTION not_me() and CREATE TRIGGER nor_me ON x
CREATE OR REPLACE FUNCTION "keep"(a text) RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
DROP TRIGGER IF EXISTS kept ON files;
CREATE TRIGGER kept BEFORE UPDATE OF owner_id ON files
  FOR EACH ROW EXECUTE FUNCTION keep();
ALTER TABLE files ENABLE ALWAYS TRIGGER kept;
CREATE TRIGGER "logged" AFTER INSERT OR DELETE ON "entries" FOR EACH STATEMENT EXECUTE FUNCTION keep();`;
    expect(definedIn(sql)).toEqual({
      functions: ['keep'],
      triggers: [
        { table: 'files', name: 'kept', always: true },
        { table: 'entries', name: 'logged', always: false },
      ],
    });
  });
});
