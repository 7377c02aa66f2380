// How many records of the event log no signed checkpoint covers yet, every chain together (the
// metrics' silo_event_records_since_checkpoint): a growing figure means checkpoints stopped.
import type { Tx } from '../db/client';
import { Prisma } from '../db/generated/client';
import { CHECKPOINTED_SEQ } from './checkpoints';

/** Each chain's head less the seq its last checkpoint covers, summed: what checkpointChains would sign next. */
export const RECORDS_SINCE_CHECKPOINT_SQL = Prisma.sql`
  SELECT coalesce(sum(h.seq - ${CHECKPOINTED_SEQ}), 0)::float8 AS n
  FROM chain_heads h`;

export async function recordsSinceCheckpoint(db: Tx): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>(RECORDS_SINCE_CHECKPOINT_SQL);
  return row.n;
}
