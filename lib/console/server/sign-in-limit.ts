// Limits on console sign-in (OWASP Authentication Cheat Sheet: count failures per account, not
// only per address, and do not let the count become a way to lock users out):
// - from a browser unknown to the account: 10 failures per account and 50 per address in 15 min,
//   after which attempts are refused before the password is even checked (no argon2 spent);
// - from a browser that signed in to the account before (known-device cookie): its own count
//   of 10 per 15 min, untouched by anyone else's failures.
// A slot is taken before the (slow) password check and given back on success, so concurrent
// guesses cannot slip past the limit together.
import { getDb } from '@/lib/db/client';
import { countInWindow, uncountInWindow } from '@/lib/db/rate-windows';

export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const FAILURES_PER_ACCOUNT = 10;
export const FAILURES_PER_DEVICE = 10;
export const FAILURES_PER_ADDRESS = 50;

export interface SignInAttempt {
  email: string;
  address: string;
  /** the device id when the browser proved a past sign-in to this account */
  device?: string;
}

/** Thrown (its message reaches the sign-in form through next-auth) when attempts are refused. */
export class SignInLocked extends Error {
  override readonly name = 'SignInLocked';
  constructor(readonly retryAfter: number) {
    super(`Too many attempts; try again in ${Math.ceil(retryAfter / 60)} min`);
  }
}

function counters(a: SignInAttempt): Array<[string, number]> {
  const email = a.email.slice(0, 320);
  if (a.device) return [[`signin:device:${a.device}:${email}`, FAILURES_PER_DEVICE]];
  // The address first: past its limit, no per-account counter is made for a sprayed email.
  return [
    [`signin:addr:${a.address}`, FAILURES_PER_ADDRESS],
    [`signin:account:${email}`, FAILURES_PER_ACCOUNT],
  ];
}

/** Runs `check` (the password verification) within the limits; a failure stays counted. */
export async function withinSignInLimits<T>(a: SignInAttempt, check: () => Promise<T | undefined>): Promise<T | undefined> {
  const db = await getDb();
  const keys: string[] = [];
  for (const [key, max] of counters(a)) {
    const u = await countInWindow(db, key, SIGN_IN_WINDOW_SECONDS);
    keys.push(key);
    if (u.count > max) throw new SignInLocked(u.retryAfter);
  }
  const result = await check().catch(async (err) => {
    await Promise.all(keys.map((key) => uncountInWindow(db, key)));
    throw err;
  });
  if (result !== undefined) await Promise.all(keys.map((key) => uncountInWindow(db, key)));
  return result;
}
