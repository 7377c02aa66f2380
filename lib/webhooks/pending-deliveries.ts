// The webhook backlog, as the metrics report it (silo_webhook_deliveries_pending and
// silo_webhook_oldest_pending_seconds): read at scrape time, on the index the claim uses.
import type { Tx } from '../db/client';
import { Prisma } from '../db/generated/client';

export interface PendingDeliveries {
  /** deliveries neither succeeded nor failed yet, every endpoint of the instance */
  count: number;
  /** seconds since the oldest of them was made (the database's clock); 0 when there is none */
  oldestSeconds: number;
}

/**
 * One statement over the pending rows of (state, next_attempt_at): its cost grows with the backlog,
 * not with the deliveries kept (finished rows are never read).
 */
export const PENDING_DELIVERIES_SQL = Prisma.sql`
  SELECT count(*)::int AS n, extract(epoch FROM now() - min(created_at))::float8 AS oldest
  FROM webhook_deliveries WHERE state = 'pending'`;

export async function pendingDeliveries(db: Tx): Promise<PendingDeliveries> {
  const [row] = await db.$queryRaw<{ n: number; oldest: number | null }[]>(PENDING_DELIVERIES_SQL);
  return { count: row.n, oldestSeconds: Math.max(0, row.oldest ?? 0) };
}
