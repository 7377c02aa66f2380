// A throwaway PostgreSQL database (and, when asked, its two roles) on TEST_DATABASE_URL's server:
// the unit tests' worlds (database.ts) and the e2e servers (e2e/fixtures/server.ts) make theirs here.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ThrowawayDatabase {
  url: string;
  ownerUrl?: string;
  roles?: { owner: string; runtime: string };
  drop(): Promise<void>;
}

/**
 * A new database on TEST_DATABASE_URL's server; with `twoRoles`, owned by a new role, with a second
 * new role to run as. Roles are the cluster's, not the database's: named at random, dropped by drop().
 */
export async function throwawayDatabase(twoRoles = false, prefix = 'silo_unit'): Promise<ThrowawayDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const tag = randomBytes(6).toString('hex');
  const name = `${prefix}_${tag}`;
  const admin = async (...sql: string[]) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      for (const q of sql) await c.query(q);
    } finally {
      await c.end();
    }
  };
  const urlOf = (user?: string) => {
    const url = new URL(base);
    url.pathname = `/${name}`;
    if (user) {
      url.username = user;
      url.password = '';
    }
    return url.toString();
  };
  if (!twoRoles) {
    await admin(`CREATE DATABASE ${name}`);
    return { url: urlOf(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const roles = { owner: `silo_owner_${tag}`, runtime: `silo_app_${tag}` };
  await admin(`CREATE ROLE ${roles.owner} LOGIN`, `CREATE ROLE ${roles.runtime} LOGIN`, `CREATE DATABASE ${name} OWNER ${roles.owner}`);
  return {
    url: urlOf(roles.runtime),
    ownerUrl: urlOf(roles.owner),
    roles,
    drop: () =>
      admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `DROP ROLE IF EXISTS ${roles.runtime}`, `DROP ROLE IF EXISTS ${roles.owner}`),
  };
}
