// How many records of the event log no signed checkpoint covers yet, every chain together (the
// metrics' silo_event_records_since_checkpoint): a growing figure means checkpoints stopped.
import type { Tx } from '../db/client';
import { Prisma } from '../db/generated/client';

/**
 * Each chain's head less its last checkpoint (0 without one), summed: one row per chain, the last
 * checkpoint found on the checkpoints' primary key, as checkpointChains looks for grown chains.
 */
export const RECORDS_SINCE_CHECKPOINT_SQL = Prisma.sql`
  SELECT coalesce(sum(h.seq - coalesce((SELECT max(c.seq) FROM checkpoints c WHERE c.owner_id = h.owner_id AND c.sandbox = h.sandbox), 0)), 0)::float8 AS n
  FROM chain_heads h`;

export async function recordsSinceCheckpoint(db: Tx): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>(RECORDS_SINCE_CHECKPOINT_SQL);
  return row.n;
}
