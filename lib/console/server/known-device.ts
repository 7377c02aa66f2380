// A "known device" cookie (OWASP's device cookies against online guessing): a browser that once
// signed in to an account carries proof of it, so a stranger's failed guesses, which lock the
// account for unknown browsers, never lock out its owner's own browser.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse, serialize } from 'cookie';
import { sessionSecret } from '@/lib/http/session-secret';

export const DEVICE_COOKIE = 'silo-device';
const MAX_AGE = 180 * 24 * 3600;

async function mac(email: string, nonce: string): Promise<string> {
  return createHmac('sha256', await sessionSecret())
    .update(`known-device\0${email}\0${nonce}`)
    .digest('base64url');
}

/** The device id of a cookie value, when it proves a past sign-in to `email`. */
export async function knownDevice(cookieValue: string | undefined, email: string): Promise<string | undefined> {
  const [nonce, sig, extra] = (cookieValue ?? '').split('.');
  if (!nonce || !sig || extra !== undefined || nonce.length > 64) return undefined;
  const want = Buffer.from(await mac(email, nonce));
  const got = Buffer.from(sig);
  return got.length === want.length && timingSafeEqual(got, want) ? nonce : undefined;
}

/** The Set-Cookie header that marks this browser as known for `email`. */
export async function deviceCookie(email: string, secure: boolean): Promise<string> {
  const nonce = randomBytes(16).toString('base64url');
  const value = `${nonce}.${await mac(email, nonce)}`;
  return serialize(DEVICE_COOKIE, value, { path: '/api/auth', maxAge: MAX_AGE, httpOnly: true, sameSite: 'lax', secure });
}

/** The value of the cookie `name` in a Cookie header (the first, if sent twice). */
export const cookieValue = (header: string | null, name: string): string | undefined => parse(header ?? '')[name];
