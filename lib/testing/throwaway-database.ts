// A throwaway PostgreSQL database (and, when asked, its two roles) on TEST_DATABASE_URL's server:
// the unit tests' worlds (database.ts) and the e2e servers (e2e/fixtures/server.ts) make theirs here,
// a copy of the run's migrated template (templates.ts) when there is one, else an empty one.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { testTemplates } from './templates';

export interface ThrowawayDatabase {
  url: string;
  ownerUrl?: string;
  roles?: { owner: string; runtime: string };
  drop(): Promise<void>;
}

/** Runs `sql` in order on one connection to `base` (TEST_DATABASE_URL: its superuser). */
export async function adminSql(base: string, ...sql: string[]): Promise<void> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    for (const q of sql) await c.query(q);
  } finally {
    await c.end();
  }
}

/** `base` with the database `name`, as `user` (no password: the test server trusts) if given. */
export function databaseUrl(base: string, name: string, user?: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  if (user) {
    url.username = user;
    url.password = '';
  }
  return url.toString();
}

const testServer = (): string => {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  return base;
};

/**
 * A new, empty database on TEST_DATABASE_URL's server (the opener migrates it from nothing); with
 * `twoRoles`, owned by a new role, with a second new role to run as. Roles are the cluster's, not
 * the database's: named at random, dropped by drop().
 */
export async function throwawayDatabase(twoRoles = false, prefix = 'silo_unit'): Promise<ThrowawayDatabase> {
  const base = testServer();
  const tag = randomBytes(6).toString('hex');
  const name = `${prefix}_${tag}`;
  const admin = (...sql: string[]) => adminSql(base, ...sql);
  if (!twoRoles) {
    await admin(`CREATE DATABASE ${name}`);
    return { url: databaseUrl(base, name), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const roles = { owner: `silo_owner_${tag}`, runtime: `silo_app_${tag}` };
  await admin(`CREATE ROLE ${roles.owner} LOGIN`, `CREATE ROLE ${roles.runtime} LOGIN`, `CREATE DATABASE ${name} OWNER ${roles.owner}`);
  return {
    url: databaseUrl(base, name, roles.runtime),
    ownerUrl: databaseUrl(base, name, roles.owner),
    roles,
    drop: () =>
      admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `DROP ROLE IF EXISTS ${roles.runtime}`, `DROP ROLE IF EXISTS ${roles.owner}`),
  };
}

/**
 * A migrated database: a copy of the run's template (CREATE DATABASE … TEMPLATE), as throwawayDatabase
 * makes one but with every migration applied and, with `twoRoles`, owned by the run's owner role and
 * run as its runtime role (dropped at the run's end, not by drop()). Without a template (a benchmark,
 * a script run outside the test runners): throwawayDatabase's empty one, which the opener migrates.
 */
export async function migratedDatabase(twoRoles = false, prefix = 'silo_unit'): Promise<ThrowawayDatabase> {
  const t = testTemplates()?.postgres;
  if (!t) return throwawayDatabase(twoRoles, prefix);
  const base = testServer();
  // The run's tag in the name: the run's end drops a copy a test left behind (dropTemplates).
  const name = `${prefix}_${t.run}_${randomBytes(6).toString('hex')}`;
  const drop = () => adminSql(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  if (!twoRoles) {
    await adminSql(base, `CREATE DATABASE ${name} TEMPLATE ${t.oneRole}`);
    return { url: databaseUrl(base, name), drop };
  }
  const { roles } = t;
  await adminSql(base, `CREATE DATABASE ${name} TEMPLATE ${t.twoRoles} OWNER ${roles.owner}`);
  return { url: databaseUrl(base, name, roles.runtime), ownerUrl: databaseUrl(base, name, roles.owner), roles: { ...roles }, drop };
}
