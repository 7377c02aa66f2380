// Fixed-window counters by key, kept in the database so that every instance on it counts
// together (a limit per address holds whichever instance a load balancer picks), beside the other
// counters every instance shares (job-lease.ts, the upload leases). One statement per event: an
// upsert that opens a new window when the old one has ended. A limit past its count is the
// contract's 429 with Retry-After (rateLimited), made here; lib/http only lets it through.
import { ApiError } from '../errors';
import type { Tx } from './client';

export interface Usage {
  /** events counted in the current window (including this one) */
  count: number;
  /** whole seconds until the window ends (at least 1) */
  retryAfter: number;
}

/** Counts one event under `key` in a window of `seconds` that starts with its first event. */
export async function countInWindow(db: Tx, key: string, seconds: number, now = Date.now()): Promise<Usage> {
  const at = new Date(now);
  const [row] = await db.$queryRaw<{ count: number; reset_at: Date }[]>`
    INSERT INTO rate_windows (key, count, reset_at) VALUES (${key}, 1, ${new Date(now + seconds * 1000)})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_windows.reset_at <= ${at} THEN 1 ELSE rate_windows.count + 1 END,
      reset_at = CASE WHEN rate_windows.reset_at <= ${at} THEN EXCLUDED.reset_at ELSE rate_windows.reset_at END
    RETURNING count, reset_at`;
  return { count: row.count, retryAfter: Math.max(1, Math.ceil((row.reset_at.getTime() - now) / 1000)) };
}

/** Gives back one event counted in the current window of `key` (an attempt that turned out fine). */
export async function uncountInWindow(db: Tx, key: string, now = Date.now()): Promise<void> {
  await db.$executeRaw`UPDATE rate_windows SET count = count - 1 WHERE key = ${key} AND reset_at > ${new Date(now)} AND count > 0`;
}

/** The contract's 429: try again in `retryAfter` seconds. */
export function rateLimited(retryAfter: number, message = `Too many requests; retry in ${retryAfter} s`): ApiError {
  return new ApiError('rate_limited', message, { headers: { 'Retry-After': String(retryAfter) } });
}

/** Counts one event under `key` and throws 429 once the window of `seconds` holds more than `max`. */
export async function limit(db: Tx, key: string, max: number, seconds = 60, now = Date.now()): Promise<void> {
  const u = await countInWindow(db, key, seconds, now);
  if (u.count > max) throw rateLimited(u.retryAfter);
}

/** Forgets windows that ended long ago (run by the periodic sweep). */
export function forgetEndedWindows(db: Tx, now = Date.now()): Promise<number> {
  return db.$executeRaw`DELETE FROM rate_windows WHERE reset_at < ${new Date(now - 60 * 60 * 1000)}`;
}
