// Fixed-window counters by key, in this process's memory. A few async primitives, so that moving
// the counters into PostgreSQL (one upsert … RETURNING per consume) changes no caller.
import { ApiError } from '../errors';

interface Counter {
  count: number;
  resetAt: number;
}

export interface Usage {
  /** events counted in the current window (including this one, for consume) */
  count: number;
  /** whole seconds until the window ends (at least 1) */
  retryAfter: number;
}

const g = globalThis as unknown as { __siloRateWindows?: Map<string, Counter> };
const windows = (g.__siloRateWindows ??= new Map());

const usage = (c: Counter, now: number): Usage => ({ count: c.count, retryAfter: Math.max(1, Math.ceil((c.resetAt - now) / 1000)) });

/** Counts one event under `key` in a window of `seconds` that starts with its first event. */
export async function consume(key: string, seconds: number, now = Date.now()): Promise<Usage> {
  let c = windows.get(key);
  if (!c || c.resetAt <= now) {
    c = { count: 0, resetAt: now + seconds * 1000 };
    windows.set(key, c);
    if (windows.size > 100_000) for (const [k, v] of windows) if (v.resetAt <= now) windows.delete(k);
  }
  c.count += 1;
  return usage(c, now);
}

/** Gives back one event counted in the current window of `key` (an attempt that turned out fine). */
export async function release(key: string, now = Date.now()): Promise<void> {
  const c = windows.get(key);
  if (c && c.resetAt > now && c.count > 0) c.count -= 1;
}

export function rateLimited(retryAfter: number, message = `Too many requests; retry in ${retryAfter} s`): ApiError {
  return new ApiError('rate_limited', message, { headers: { 'Retry-After': String(retryAfter) } });
}

/** Counts one event and throws 429 once the window holds more than `limit`. */
export async function limit(key: string, max: number, seconds = 60): Promise<void> {
  const u = await consume(key, seconds);
  if (u.count > max) throw rateLimited(u.retryAfter);
}
