// Rate limits as a request meets them: the shared counters are the database's
// (lib/db/rate-windows.ts); here, the process's database and the 429 with Retry-After.
import { getDb } from '../db/client';
import { countInWindow, type Usage, uncountInWindow } from '../db/rate-windows';
import { ApiError } from '../errors';

export type { Usage };

/** Counts one event under `key` in a window of `seconds` that starts with its first event. */
export async function consume(key: string, seconds: number, now = Date.now()): Promise<Usage> {
  return countInWindow(await getDb(), key, seconds, now);
}

/** Gives back one event counted in the current window of `key` (an attempt that turned out fine). */
export async function release(key: string, now = Date.now()): Promise<void> {
  await uncountInWindow(await getDb(), key, now);
}

export function rateLimited(retryAfter: number, message = `Too many requests; retry in ${retryAfter} s`): ApiError {
  return new ApiError('rate_limited', message, { headers: { 'Retry-After': String(retryAfter) } });
}

/** Counts one event and throws 429 once the window holds more than `limit`. */
export async function limit(key: string, max: number, seconds = 60): Promise<void> {
  const u = await consume(key, seconds);
  if (u.count > max) throw rateLimited(u.retryAfter);
}
