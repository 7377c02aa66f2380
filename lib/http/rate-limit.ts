// Fixed-window counters by key, kept in the database so that every instance on it counts
// together (a limit per address holds whichever instance a load balancer picks). One statement
// per event: an upsert that opens a new window when the old one has ended.
import { getDb } from '../db/client';
import { ApiError } from '../errors';

export interface Usage {
  /** events counted in the current window (including this one, for consume) */
  count: number;
  /** whole seconds until the window ends (at least 1) */
  retryAfter: number;
}

/** Counts one event under `key` in a window of `seconds` that starts with its first event. */
export async function consume(key: string, seconds: number, now = Date.now()): Promise<Usage> {
  const db = await getDb();
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
export async function release(key: string, now = Date.now()): Promise<void> {
  const db = await getDb();
  await db.$executeRaw`UPDATE rate_windows SET count = count - 1 WHERE key = ${key} AND reset_at > ${new Date(now)} AND count > 0`;
}

/** Forgets windows that ended long ago (run by the periodic sweep). */
export async function forgetEndedWindows(now = Date.now()): Promise<number> {
  const db = await getDb();
  return db.$executeRaw`DELETE FROM rate_windows WHERE reset_at < ${new Date(now - 60 * 60 * 1000)}`;
}

export function rateLimited(retryAfter: number, message = `Too many requests; retry in ${retryAfter} s`): ApiError {
  return new ApiError('rate_limited', message, { headers: { 'Retry-After': String(retryAfter) } });
}

/** Counts one event and throws 429 once the window holds more than `limit`. */
export async function limit(key: string, max: number, seconds = 60): Promise<void> {
  const u = await consume(key, seconds);
  if (u.count > max) throw rateLimited(u.retryAfter);
}
