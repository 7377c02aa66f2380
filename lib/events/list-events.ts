// GET /silo/v1/events: a chain's records, oldest first, in keyset pages by seq.
import type { Tx } from '../db/client';
import type { Chain } from './chain';
import type { EventType } from './catalogue';
import { type EventRecord, presentEvent } from './record';

export interface EventQuery {
  limit: number;
  /** records after this seq */
  after?: number;
  entry_id?: string;
  type?: EventType;
}

export async function listEvents(db: Tx, chain: Chain, q: EventQuery) {
  const after = q.after ?? 0;
  const rows = await db.event.findMany({
    where: {
      ownerId: chain.ownerId,
      sandbox: chain.sandbox,
      seq: { gt: BigInt(after) },
      ...(q.entry_id ? { entryId: q.entry_id } : {}),
      ...(q.type ? { type: q.type } : {}),
    },
    orderBy: { seq: 'asc' },
    take: q.limit + 1,
  });
  const list: EventRecord[] = rows.slice(0, q.limit).map(presentEvent);
  const more = rows.length > q.limit;
  return {
    list,
    limit: q.limit,
    ...(q.after !== undefined ? { cursor: String(q.after) } : {}),
    ...(more ? { next_cursor: String(list[list.length - 1].seq) } : {}),
  };
}
