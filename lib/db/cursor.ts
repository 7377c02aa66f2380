// Keyset cursors: the (created_at, id) of the last row of a page, opaque to callers.
import { ApiError } from '../errors';
import { UUID } from '../schemas/common';

export interface Keyset {
  createdAt: Date;
  id: string;
}

export function encodeCursor(k: Keyset): string {
  return Buffer.from(JSON.stringify([k.createdAt.toISOString(), k.id])).toString('base64url');
}

// What encodeCursor writes: an ISO time and a UUID. Years 0001–9999 only: PostgreSQL has no year
// 0000 (1 BC is its year before 0001) and refuses it in a timestamp, which would answer 500.
const ISO_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A cursor this service issued, or 422: anything else would reach the query as a bad uuid or time. */
export function decodeCursor(cursor: string): Keyset {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(value) || value.length !== 2) throw badCursor();
  const [at, id] = value;
  if (typeof at !== 'string' || !ISO_TIME.test(at) || typeof id !== 'string' || !UUID.test(id)) throw badCursor();
  const createdAt = new Date(at);
  // Round-trips only when the date exists (no 2026-02-30, no hour 25).
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== at) throw badCursor();
  return { createdAt, id };
}

const badCursor = () => new ApiError('validation', 'cursor is not one this service issued', { fields: { cursor: 'is not valid' } });

/**
 * Rows strictly after the cursor in (created_at desc, id desc) order. Written as
 * `created_at <= c AND (created_at < c OR id < i)` rather than the plain OR, so the first term
 * bounds an index range scan and a deep page costs what the first one does (bench/pagination.ts).
 */
export function afterCursor(cursor?: string) {
  if (!cursor) return {};
  const k = decodeCursor(cursor);
  return { createdAt: { lte: k.createdAt }, OR: [{ createdAt: { lt: k.createdAt } }, { id: { lt: k.id } }] };
}

export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** Fetch limit + 1 rows; this cuts the page and says where the next one starts. */
export function page<T extends Keyset>(rows: T[], limit: number, cursor?: string) {
  const list = rows.slice(0, limit);
  const next = rows.length > limit ? encodeCursor(list[list.length - 1]) : undefined;
  return { list, limit, ...(cursor ? { cursor } : {}), ...(next ? { next_cursor: next } : {}) };
}

/** A cursor of a list in name order (GET /silo/v1/folders): the last name of a page. */
export const encodeNameCursor = (name: string): string => Buffer.from(JSON.stringify([name])).toString('base64url');

/** A name cursor this service issued, or 422. */
export function decodeNameCursor(cursor: string): string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(value) || value.length !== 1 || typeof value[0] !== 'string' || value[0].includes('\0')) throw badCursor();
  return value[0];
}
