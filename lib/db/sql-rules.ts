// The database's rules: every function and trigger of the schema, each in one file of prisma/sql/
// as its current text, one file per concern. Migrations change tables; these files change rules.
// After the migrations, every start applies a file again when the database does not hold it as
// written (Flyway's repeatable migrations): its text changed, something it defines is missing or a
// trigger is not in its state, or a migration ran. Otherwise a start only looks (two statements):
// replacing a trigger locks its table, and every instance starts.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { log } from '../log';
import type { SqlRunner } from './migrate';

export interface RuleFile {
  /** its name in prisma/sql, as `retention.sql` */
  name: string;
  sql: string;
  checksum: string;
  /** the functions it defines, by name */
  functions: string[];
  /** the triggers it defines, and whether each fires ALWAYS (else on origin only, the default) */
  triggers: { table: string; name: string; always: boolean }[];
}

// Read at run time from the app's directory, as the migrations are (migrate.ts).
const RULES_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), 'prisma', 'sql');

/** Every *.sql file of `dir`, in name order: the order they are applied in. */
export async function readRules(dir = RULES_DIR): Promise<RuleFile[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex'), ...definedIn(sql) };
    }),
  );
}

const IDENT = `"?([A-Za-z_][A-Za-z0-9_]*)"?`;

/**
 * What a file defines, read from its statements: CREATE OR REPLACE FUNCTION name(…), CREATE TRIGGER
 * name … ON table, ALTER TABLE table ENABLE ALWAYS TRIGGER name (comments ignored). sql-rules.test.ts
 * holds it to what applying the file writes into the database.
 */
export function definedIn(sql: string): Pick<RuleFile, 'functions' | 'triggers'> {
  const text = sql.replace(/--[^\n]*/g, '');
  const all = (re: string) => [...text.matchAll(new RegExp(re, 'gi'))];
  const always = new Set(all(String.raw`ALTER\s+TABLE\s+${IDENT}\s+ENABLE\s+ALWAYS\s+TRIGGER\s+${IDENT}`).map((m) => `${m[1]}.${m[2]}`));
  return {
    functions: all(String.raw`CREATE\s+OR\s+REPLACE\s+FUNCTION\s+${IDENT}\s*\(`).map((m) => m[1]),
    triggers: all(String.raw`CREATE\s+TRIGGER\s+${IDENT}\s[\s\S]*?\sON\s+${IDENT}`).map((m) => ({
      table: m[2],
      name: m[1],
      always: always.has(`${m[2]}.${m[1]}`),
    })),
  };
}

/** Which text of each file the database holds; made by the first start that applies them. */
const RECORD = `CREATE TABLE IF NOT EXISTS "_sql_rules" (
  "file" TEXT PRIMARY KEY,
  "checksum" VARCHAR(64) NOT NULL,
  "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
)`;

/**
 * The files the database does not hold as written: never applied or changed since, or one of their
 * functions or triggers missing, or a trigger not in the state its file gives it (a restore with
 * triggers disabled); every file with `all` (a migration ran, and may have dropped what they define).
 */
export async function staleRules(sql: SqlRunner, files: RuleFile[], all: boolean): Promise<RuleFile[]> {
  if (all) return files;
  await sql.exec(RECORD);
  const rows = await sql.query<{ kind: string; id: string; value: string | null }>(
    `SELECT 'file' AS kind, "file" AS id, "checksum" AS value FROM "_sql_rules"
     UNION ALL SELECT 'function', p.proname::text, NULL FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace
     UNION ALL SELECT 'trigger', c.relname || '.' || g.tgname, g.tgenabled::text FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
       WHERE c.relnamespace = current_schema()::regnamespace AND NOT g.tgisinternal`,
    [],
    { prepare: false },
  );
  const held = new Map(rows.map((r) => [`${r.kind} ${r.id}`, r.value]));
  return files.filter((f) => {
    if (held.get(`file ${f.name}`) !== f.checksum) return true;
    const astray = [
      ...f.functions.filter((name) => !held.has(`function ${name}`)).map((name) => `${name}() missing`),
      ...f.triggers
        .filter((t) => held.get(`trigger ${t.table}.${t.name}`) !== (t.always ? 'A' : 'O'))
        .map((t) => `trigger ${t.name} on ${t.table} ${held.has(`trigger ${t.table}.${t.name}`) ? 'not in its state' : 'missing'}`),
    ];
    if (astray.length) log.warn({ file: f.name, astray }, 'the database lacks rules of prisma/sql: applying the file again');
    return astray.length > 0;
  });
}

const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** `files` applied and recorded, for the caller's transaction: their SQL in order, then their checksums. */
export function rulesScript(files: RuleFile[]): string {
  if (!files.length) return '';
  const record = files.map((f) => `(${literal(f.name)}, ${literal(f.checksum)})`).join(', ');
  return [
    ...files.map((f) => `-- prisma/sql/${f.name}\n${f.sql}`),
    `${RECORD};`,
    `INSERT INTO "_sql_rules" ("file", "checksum") VALUES ${record}
       ON CONFLICT ("file") DO UPDATE SET "checksum" = EXCLUDED."checksum", "applied_at" = now();`,
  ].join('\n');
}

/** Applies the stale files (staleRules) in one transaction; answers their names. */
export async function applyRules(sql: SqlRunner, files: RuleFile[], all: boolean): Promise<string[]> {
  const stale = await staleRules(sql, files, all);
  if (!stale.length) return [];
  try {
    await sql.exec(`BEGIN;\n${rulesScript(stale)}\nCOMMIT;`);
  } catch (err) {
    // A statement that failed left the transaction open and aborted: the connection goes back usable.
    await sql.exec('ROLLBACK').catch(() => {});
    throw err;
  }
  return stale.map((f) => f.name);
}

/** Why a database another role prepares does not hold `files` as written, or undefined (a script beside the server). */
export async function rulesProblem(sql: SqlRunner, files: RuleFile[]): Promise<string | undefined> {
  const [{ record }] = await sql.query<{ record: boolean }>(`SELECT to_regclass('"_sql_rules"') IS NOT NULL AS record`, [], {
    prepare: false,
  });
  const rows = record
    ? await sql.query<{ file: string; checksum: string }>('SELECT "file", "checksum" FROM "_sql_rules"', [], { prepare: false })
    : [];
  const held = new Map(rows.map((r) => [r.file, r.checksum]));
  const other = files.find((f) => held.get(f.name) !== f.checksum);
  return (
    other && `the database's rules differ from prisma/sql/${other.name}: start the server once (it applies them as DATABASE_OWNER_URL)`
  );
}
