// When a failed delivery is tried again (docs/api.md, Webhooks): 5 s doubling to 1,280 s, then every
// 30 minutes, for 24 hours from its first attempt; a Retry-After the receiver sends lengthens the
// step, never shortens it (0, negative, a past date or garbage: the step). An endpoint failing for
// 5 days is disabled.
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** A delivery's lease: longer than an attempt's 15 s, so it lapses only when its holder died or stalled. */
export const LEASE_MS = 30_000;
export const RETRY_WINDOW_MS = 24 * 3600 * 1000;
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
export const ATTEMPTS_KEPT_MS = 30 * 24 * 3600 * 1000;
const FIRST_MS = 5_000;
const LAST_DOUBLED_MS = 1_280_000;
const THEN_EVERY_MS = 30 * 60 * 1000;

/** The wait after the `failed`-th failed attempt (1 → 5 s, 2 → 10 s, … 9 → 1,280 s, then 30 min). */
export function retryDelayMs(failed: number): number {
  const doubled = FIRST_MS * 2 ** Math.max(0, failed - 1);
  return doubled <= LAST_DOUBLED_MS ? doubled : THEN_EVERY_MS;
}

/** Retry-After as a wait in ms (delay-seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const v = header.trim();
  if (/^\d{1,10}$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/**
 * When to try again after the `failed`-th failure, or undefined: give up (the next try would fall
 * past the 24 hours from `windowStart`). A Retry-After shorter than the schedule's step is raised to
 * it: a receiver answering `Retry-After: 0` would otherwise be tried every round for 24 hours.
 */
export function nextAttemptAt(failed: number, now: Date, windowStart: Date, retryAfter?: number): Date | undefined {
  const wait = Math.max(retryDelayMs(failed), retryAfter ?? 0);
  const next = new Date(now.getTime() + wait);
  return next.getTime() > windowStart.getTime() + RETRY_WINDOW_MS ? undefined : next;
}
