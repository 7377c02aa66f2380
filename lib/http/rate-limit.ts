// A fixed-window counter per key, in this process's memory (contract §2: authorize is rate limited).
import { ApiError } from '../errors';

const windows = new Map<string, { start: number; count: number }>();
const WINDOW_MS = 60_000;

export function rateLimit(key: string, perMinute: number, now = Date.now()): void {
  const w = windows.get(key);
  if (!w || now - w.start >= WINDOW_MS) {
    windows.set(key, { start: now, count: 1 });
    if (windows.size > 50_000) for (const [k, v] of windows) if (now - v.start >= WINDOW_MS) windows.delete(k);
    return;
  }
  w.count += 1;
  if (w.count > perMinute) {
    const retry = Math.ceil((w.start + WINDOW_MS - now) / 1000);
    throw new ApiError('rate_limited', `Too many requests; retry in ${retry} s`, { headers: { 'Retry-After': String(retry) } });
  }
}

export function clientAddress(headers: Headers): string {
  return headers.get('x-forwarded-for')?.split(',')[0].trim() || headers.get('x-real-ip') || 'local';
}
