// Makes the run's migrated templates (templates.ts), in a process of its own so that initdb's half
// gigabyte ends with it: `node --import tsx lib/testing/make-templates.ts <dir> <run> <runner>
// [--data-dir]` writes <dir>/pglite.tgz, <dir>/db (with --data-dir) and, with TEST_DATABASE_URL, two
// template databases (their comment <runner>: the run's process) and the run's two roles; then
// <dir>/templates.json. On a failure it drops what it made on PostgreSQL and exits 1.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { openDatabase } from '../db/client';
import { readMigrations, type SqlRunner } from '../db/migrate';
import { prepareSchema } from '../db/prepare-schema';
import { readRules } from '../db/sql-rules';
import { dropTemplates, type PostgresTemplates, postgresTemplatesOf, type Templates } from './templates';
import { adminSql, databaseUrl } from './throwaway-database';

// The extensions the server's PGlite loads (pglite-worker.mjs).
const extensions = { pg_trgm };

/**
 * A migrated in-memory PGlite dumped to `tarball` (PGlite's dumpDataDir), then unpacked into the data
 * directory `dataDir` as an e2e server keeps one (DATA_DIR/db). The migrations and the rules of
 * prisma/sql are applied as the server's start applies them on PGlite (prepareSchema, in
 * pglite-worker.mjs's session); a world's open runs that start again and finds nothing to do.
 */
async function pgliteTemplate(tarball: string, dataDir: string | undefined): Promise<void> {
  const lite = await PGlite.create({ extensions });
  try {
    // As the server's PGlite session runs (pglite-worker.mjs): the migrations write no change log.
    await lite.exec("SET silo.change_log = 'off'");
    const sql: SqlRunner = { exec: async (s) => void (await lite.exec(s)), query: async (s, p) => (await lite.query(s, p)).rows as never };
    await prepareSchema({ kind: 'pglite', sql }, await readMigrations(), await readRules(), {});
    await lite.exec('CHECKPOINT');
    await writeFile(tarball, Buffer.from(await (await lite.dumpDataDir('gzip')).arrayBuffer()));
  } finally {
    await lite.close();
  }
  if (!dataDir) return;
  const onDisk = await PGlite.create(dataDir, { extensions, loadDataDir: new Blob([await readFile(tarball)]) });
  await onDisk.close();
}

/**
 * Two template databases on `base`'s server, opened as a test's or a server's database is
 * (openDatabase: migrations, then grants and the change log's arming), then closed to connections
 * (CREATE DATABASE … TEMPLATE needs a template nobody is connected to).
 */
async function postgresTemplates(base: string, t: PostgresTemplates, runner: string): Promise<void> {
  const { owner, runtime } = t.roles;
  await adminSql(base, `CREATE ROLE ${owner} LOGIN`, `CREATE ROLE ${runtime} LOGIN`);
  await adminSql(base, `CREATE DATABASE ${t.oneRole}`, `CREATE DATABASE ${t.twoRoles} OWNER ${owner}`);
  await (await openDatabase({ url: databaseUrl(base, t.oneRole) })).close();
  await (await openDatabase({ url: databaseUrl(base, t.twoRoles, runtime), ownerUrl: databaseUrl(base, t.twoRoles, owner) })).close();
  await adminSql(
    base,
    ...[t.oneRole, t.twoRoles].flatMap((name) => [
      `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`,
      // the run's process: a later run drops these if it is gone (templates.ts, dropAbandoned)
      `COMMENT ON DATABASE ${name} IS '${runner.replaceAll("'", "''")}'`,
    ]),
  );
}

async function main(dir: string, run: string, runner: string): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  const templates: Templates = {
    pgliteTarball: path.join(dir, 'pglite.tgz'),
    ...(process.argv.includes('--data-dir') && { pgliteDir: path.join(dir, 'db') }),
    ...(base && { postgres: postgresTemplatesOf(run) }),
  };
  try {
    await Promise.all([
      pgliteTemplate(templates.pgliteTarball, templates.pgliteDir),
      base && templates.postgres && postgresTemplates(base, templates.postgres, runner),
    ]);
  } catch (err) {
    await dropTemplates(templates).catch(() => {});
    throw err;
  }
  await writeFile(path.join(dir, 'templates.json'), JSON.stringify(templates));
}

const [dir, run, runner] = process.argv.slice(2);
main(dir, run, runner).then(
  () => process.exit(0),
  (err) => {
    console.error("the tests' templates could not be made:", err);
    process.exit(1);
  },
);
