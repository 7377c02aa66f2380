// Turns the event log into deliveries: per enabled endpoint, the records after its cursor
// (scanned_seq) that match its types become delivery rows, and the cursor moves to the last
// record read, in one statement. Nothing is lost by construction: a chain's records commit in seq
// order (the head row serialises its appends), the statement reads the head and the records in
// one snapshot, and the cursor moves only with the rows it inserted. Nothing on the write path.
import type { Db } from '../db/client';
import { queryDirect } from '../db/direct-query';
import { Prisma } from '../db/generated/client';

/** Records read per endpoint per round. */
export const SCAN_BATCH = 500;

/**
 * Delivery rows made for the records committed since the last scan, up to `batch` records per
 * endpoint; the number of endpoints that moved.
 */
export async function scanEvents(db: Db, now: Date, batch = SCAN_BATCH): Promise<number> {
  // Planned for its values on every run, never prepared (prepared.ts): its plan depends on how many
  // records wait, which a generic plan made at start-up cannot know.
  const moved = await queryDirect<{ id: string }>(db, scanSql(now, batch), { prepare: false });
  return moved.length;
}

/** The scan's statement (exported for its test). */
export function scanSql(now: Date, batch = SCAN_BATCH) {
  return Prisma.sql`
    WITH w AS (
      SELECT w.id, w.owner_id, w.sandbox, w.scanned_seq, w.types, LEAST(h.seq, w.scanned_seq + ${batch}::int) AS upto
        FROM webhooks w JOIN chain_heads h ON h.owner_id = w.owner_id AND h.sandbox = w.sandbox
       WHERE NOT w.disabled AND h.seq > w.scanned_seq
         FOR UPDATE OF w SKIP LOCKED
    ), made AS (
      INSERT INTO webhook_deliveries (id, webhook_id, event_id, seq, entry_id, created_at, window_start, next_attempt_at)
      SELECT gen_random_uuid(), w.id, e.id, e.seq, e.entry_id, ${now}, ${now}, ${now}
        FROM w JOIN events e ON e.owner_id = w.owner_id AND e.sandbox = w.sandbox AND e.seq > w.scanned_seq AND e.seq <= w.upto
       WHERE '*' = ANY (w.types) OR e.type = ANY (w.types)
      ON CONFLICT (webhook_id, event_id) DO NOTHING
    )
    UPDATE webhooks SET scanned_seq = w.upto FROM w WHERE webhooks.id = w.id RETURNING webhooks.id::text`;
}
