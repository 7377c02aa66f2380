// Applies the checked-in SQL migrations (prisma/migrations/*/migration.sql) in order, once each,
// recording them in Prisma's own `_prisma_migrations` table so the history stays Prisma's.
import { log } from '../log';
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** The least a migration needs from a connection: run a script, run one parameterised query. */
export interface SqlRunner {
  exec(sql: string): Promise<void>;
  /** `o.prepare: false`: never as a named statement, though the runner prepares others (prepared.ts) */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], o?: { prepare?: boolean }): Promise<T[]>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

// Read at run time from the app's directory; turbopackIgnore keeps the build from tracing the whole project.
const MIGRATIONS_DIR = path.join(/* turbopackIgnore: true */ process.cwd(), 'prisma', 'migrations');

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

const HISTORY = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Any lock number will do as long as every Silo instance uses the same one. */
const LOCK = 7_230_201;

/**
 * Applies what is missing. On PostgreSQL an advisory lock keeps two instances starting at once
 * from applying the same migration twice; each migration runs in its own transaction.
 */
export async function migrate(
  db: SqlRunner,
  migrations: Migration[],
  opts: {
    lock: boolean /** run after the migrations, still under the lock; `applied`: what ran now */;
    afterward?: (applied: string[]) => Promise<void>;
  },
): Promise<string[]> {
  if (opts.lock) await db.query('SELECT pg_advisory_lock($1)', [LOCK]);
  try {
    await db.exec(HISTORY);
    const rows = await db.query<{ migration_name: string; checksum: string }>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const applied: string[] = [];
    for (const m of migrations) {
      const seen = done.get(m.name);
      if (seen !== undefined) {
        if (seen !== m.checksum) log.warn({ migration: m.name }, 'migration was edited after it was applied');
        continue;
      }
      await db.exec(
        `BEGIN;\n${m.sql}\n;INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count) VALUES ('${randomUUID()}', '${m.checksum}', '${m.name.replace(/'/g, "''")}', now(), 1);\nCOMMIT;`,
      );
      applied.push(m.name);
    }
    await opts.afterward?.(applied);
    return applied;
  } catch (err) {
    await db.exec('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    if (opts.lock) await db.query('SELECT pg_advisory_unlock($1)', [LOCK]);
  }
}
