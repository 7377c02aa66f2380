// GET /silo/v1/events: a chain's records in keyset pages by seq, oldest first or newest first.
// Each order is one range of an index ending in seq (the chain's, or its entry_id or type one),
// read forwards or backwards.
import type { Tx } from '../db/client';
import type { Period } from '../db/scope';
import { ApiError } from '../errors';
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

/**
 * The seq range of a query: `?cursor=` is the list's usual name for `?after=` (oldest first) or
 * `?before=` (newest first), and holds what this service issued as `next_cursor` — a seq, 1 or
 * more, in decimal. Anything else is 422 naming `cursor`, never a silent start from the beginning.
 */
export function eventRange(q: { order?: 'asc' | 'desc'; after?: number; before?: number; cursor?: string }): {
  after?: number;
  before?: number;
} {
  const cursor = q.cursor === undefined ? undefined : seqCursor(q.cursor);
  return q.order === 'desc' ? { after: q.after, before: q.before ?? cursor } : { after: q.after ?? cursor, before: q.before };
}

function seqCursor(cursor: string): number {
  const seq = /^[1-9]\d{0,15}$/.test(cursor) ? Number(cursor) : 0;
  if (!Number.isSafeInteger(seq) || seq < 1)
    throw new ApiError('validation', 'cursor is not one this service issued', { fields: { cursor: 'is not valid' } });
  return seq;
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
