// Whether PostgreSQL's autovacuum looks after the webhook tables. Every delivery leaves dead row
// versions and index entries (claimed, then finished); with nothing to vacuum them a claim reads
// more of them than the last. The embedded database has no autovacuum, and a PostgreSQL server
// may have it turned off (`autovacuum = off`, or `autovacuum_enabled = false` on a table): the
// engine then vacuums its two tables itself (engine.ts, VACUUM_EVERY).
import type { Db } from '../db/client';

export const WEBHOOK_TABLES = ['webhook_deliveries', 'webhook_attempts'] as const;

/** True when autovacuum runs on the server (and gathers the statistics it needs) and no webhook table opts out. */
export async function autovacuumCoversWebhooks(db: Db): Promise<boolean> {
  const [row] = await db.$queryRaw<{ on: boolean }[]>`
    SELECT current_setting('autovacuum')::boolean AND current_setting('track_counts')::boolean
       AND NOT EXISTS (SELECT 1 FROM pg_class c CROSS JOIN LATERAL unnest(c.reloptions) o
                        WHERE c.relname = ANY (${[...WEBHOOK_TABLES]}::text[]) AND c.relnamespace = 'public'::regnamespace
                          AND o LIKE 'autovacuum\_enabled=%' AND NOT split_part(o, '=', 2)::boolean) AS on`;
  return row.on;
}

/** True when this connection's role owns both webhook tables, as VACUUM requires (PostgreSQL 15). */
export async function ownsWebhookTables(db: Db): Promise<boolean> {
  const [row] = await db.$queryRaw<{ owns: boolean }[]>`
    SELECT count(*) = ${WEBHOOK_TABLES.length} AND bool_and(pg_has_role(current_user, c.relowner, 'USAGE')) AS owns
      FROM pg_class c WHERE c.relname = ANY (${[...WEBHOOK_TABLES]}::text[]) AND c.relnamespace = current_schema()::regnamespace`;
  return row.owns;
}
