// A migration's own test: a new in-memory PGlite with every migration before it applied, so the
// test can write what an older database held, then apply the rest and see what the migration made.
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { migrate, readMigrations, type SqlRunner } from '../db/migrate';

/** A row id the test can name: `testId(3)` is `00000000-0000-4000-8000-000000000003`. */
export const testId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** PGlite migrated up to (not including) the migration named `…_${name}`; `migrateRest()` applies it and the rest. */
export async function migratedBefore(name: string) {
  const lite = new PGlite({ extensions: { pg_trgm } });
  const sql: SqlRunner = { exec: async (s) => void (await lite.exec(s)), query: async (s, p) => (await lite.query(s, p)).rows as never };
  try {
    const all = await readMigrations();
    const at = all.findIndex((m) => m.name.endsWith(`_${name}`));
    if (at <= 0) throw new Error(`no migration named …_${name} after the first`);
    await migrate(sql, all.slice(0, at), { lock: false });
    return { sql, migrateRest: () => migrate(sql, all, { lock: false }), close: () => lite.close() };
  } catch (err) {
    await lite.close();
    throw err;
  }
}
