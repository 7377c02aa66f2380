// GET /silo/v1/events: a chain's records in keyset pages by seq, oldest first or newest first.
// Each order is one range of an index ending in seq (the chain's, or its entry_id or type one),
// read forwards or backwards.
import type { Tx } from '../db/client';
import type { Period } from '../db/scope';
import type { Chain } from './chain';
import type { EventType } from './catalogue';
import { type EventRecord, presentEvent } from './record';

export interface EventQuery {
  limit: number;
  /** asc (the default): oldest first; desc: newest first */
  order?: 'asc' | 'desc';
  /** records after this seq */
  after?: number;
  /** records before this seq */
  before?: number;
  entry_id?: string;
  type?: EventType;
  /** an auditor's key: only the records made in its period (`at`, start included, end excluded) */
  period?: Period;
}

export async function listEvents(db: Tx, chain: Chain, q: EventQuery) {
  const desc = q.order === 'desc';
  const rows = await db.event.findMany({
    where: {
      ownerId: chain.ownerId,
      sandbox: chain.sandbox,
      seq: {
        ...(q.after !== undefined ? { gt: BigInt(q.after) } : {}),
        ...(q.before !== undefined ? { lt: BigInt(q.before) } : {}),
      },
      ...(q.entry_id ? { entryId: q.entry_id } : {}),
      ...(q.type ? { type: q.type } : {}),
      ...(q.period ? { at: { gte: q.period.start, lt: q.period.end } } : {}),
    },
    orderBy: { seq: desc ? 'desc' : 'asc' },
    take: q.limit + 1,
  });
  const list: EventRecord[] = rows.slice(0, q.limit).map(presentEvent);
  const more = rows.length > q.limit;
  const from = desc ? q.before : q.after;
  return {
    list,
    limit: q.limit,
    ...(from !== undefined ? { cursor: String(from) } : {}),
    ...(more ? { next_cursor: String(list[list.length - 1].seq) } : {}),
  };
}
