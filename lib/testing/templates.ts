// The run's migrated templates: made once per `vitest run` and per `playwright test` by their global
// setup (vitest-templates.ts, e2e/global-setup.ts) and dropped at its end, passed or failed. Every
// test database is a copy: an in-memory PGlite loads the tarball, an e2e server's data directory
// starts as a copy of the directory, a PostgreSQL database is CREATE DATABASE … TEMPLATE. Each copy
// is still opened as the server opens its database: the migrations find nothing left to apply, and
// what a start does after them (the runtime role's grants, the change log's arming) runs again.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface PostgresTemplates {
  /** this run's tag, in the name of every database copied from its templates */
  run: string;
  /** migrated by TEST_DATABASE_URL's own role, as a one-role database is */
  oneRole: string;
  /** owned and migrated by `roles.owner`, `roles.runtime` granted its privileges (runtime-grants.ts) */
  twoRoles: string;
  /** the run's two roles: every two-role copy is owned by the one and run as the other */
  roles: { owner: string; runtime: string };
}

export interface Templates {
  /** a migrated PGlite data directory (PGlite's dumpDataDir): what in-memory PGlite loads */
  pgliteTarball: string;
  /** the same, unpacked (for Playwright's run): what an e2e server's DATA_DIR/db starts as */
  pgliteDir?: string;
  /** with TEST_DATABASE_URL: on its server */
  postgres?: PostgresTemplates;
}

/** Where the run's templates are named to the test processes (JSON of Templates). */
export const TEMPLATES_ENV = 'SILO_TEST_TEMPLATES';

/** The run's templates; none outside a test runner's run (a benchmark, a script): each database is then migrated from nothing. */
export function testTemplates(): Templates | undefined {
  const json = process.env[TEMPLATES_ENV];
  return json ? (JSON.parse(json) as Templates) : undefined;
}

/** The names of a run's PostgreSQL templates and roles. */
export const postgresTemplatesOf = (run: string): PostgresTemplates => ({
  run,
  oneRole: `silo_tpl_${run}`,
  twoRoles: `silo_tpl2_${run}`,
  roles: { owner: `silo_owner_${run}`, runtime: `silo_app_${run}` },
});

/** What names the process whose run made a template (its COMMENT, its directory's `runner` file). */
export const runnerNote = (): string => JSON.stringify({ pid: process.pid, host: os.hostname() });

/**
 * Makes the run's templates (make-templates.ts, in a process of its own) in a new temporary
 * directory, after dropping those of runs whose process is gone (killed before its teardown).
 * `o.pgliteDir`: the PGlite template unpacked too, for servers' data directories.
 */
export async function makeTestTemplates(o: { pgliteDir?: boolean } = {}): Promise<{ templates: Templates; drop(): Promise<void> }> {
  const started = performance.now();
  await dropAbandoned().catch((err) => console.warn('abandoned test templates not dropped:', err));
  const dir = await mkdtemp(path.join(os.tmpdir(), 'silo-templates-'));
  try {
    await writeFile(path.join(dir, 'runner'), runnerNote());
    await new Promise<void>((resolve, reject) => {
      const run = randomBytes(4).toString('hex');
      const args = ['lib/testing/make-templates.ts', dir, run, runnerNote(), ...(o.pgliteDir ? ['--data-dir'] : [])];
      const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`the tests' templates were not made (exit ${code}):\n${out}`)),
      );
    });
    const templates = JSON.parse(await readFile(path.join(dir, 'templates.json'), 'utf8')) as Templates;
    console.log(`migrated templates made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { templates, drop: () => dropTemplates(templates, dir) };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Drops the copies a test left, the templates and the run's roles; removes `dir`. */
export async function dropTemplates(t: Pick<Templates, 'postgres'>, dir?: string): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  try {
    if (!t.postgres || !base) return;
    const { run, oneRole, twoRoles, roles } = t.postgres;
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      const left = await c.query<{ name: string }>('SELECT datname AS name FROM pg_database WHERE strpos(datname, $1) > 0', [`_${run}_`]);
      for (const name of [...left.rows.map((r) => r.name), oneRole, twoRoles])
        await c.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS ${roles.runtime}, ${roles.owner}`);
    } finally {
      await c.end();
    }
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

const gone = (note: string | null): boolean => {
  try {
    const { pid, host } = JSON.parse(note ?? '') as { pid: number; host: string };
    if (host !== os.hostname()) return false;
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
};

/** The templates (and directories) of runs on this host whose process no longer runs. */
async function dropAbandoned(): Promise<void> {
  for (const name of await readdir(os.tmpdir()))
    if (name.startsWith('silo-templates-')) {
      const dir = path.join(os.tmpdir(), name);
      if (gone(await readFile(path.join(dir, 'runner'), 'utf8').catch(() => null))) await rm(dir, { recursive: true, force: true });
    }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  const { rows } = await c
    .query<{ run: string; note: string | null }>(
      `SELECT substring(datname FROM '_([0-9a-f]{8})$') AS run, shobj_description(oid, 'pg_database') AS note
         FROM pg_database WHERE datname ~ '^silo_tpl2?_[0-9a-f]{8}$'`,
    )
    .finally(() => c.end());
  for (const run of new Set(rows.filter((r) => gone(r.note)).map((r) => r.run)))
    await dropTemplates({ postgres: postgresTemplatesOf(run) });
}
