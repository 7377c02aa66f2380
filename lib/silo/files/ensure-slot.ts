// A slot is one file identity in an entry (category + key or name); every version is its own row
// and the slot's current_id points at the current one (make-current.ts).
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/client';

/** The slot of this identity, made on first use; racing calls get the same row. */
export async function ensureSlot(db: Tx, entryId: string, category: string, key: string): Promise<string> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    INSERT INTO file_slots (id, entry_id, category, key) VALUES (${randomUUID()}::uuid, ${entryId}::uuid, ${category}, ${key})
    ON CONFLICT (entry_id, category, key) DO UPDATE SET key = EXCLUDED.key
    RETURNING id::text`;
  return rows[0].id;
}
