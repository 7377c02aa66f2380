// The known-device cookie: set by a sign-in, read back from the Cookie header (the `cookie` package
// both ways), proving that sign-in to its account only.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../config';
import { cookieValue, DEVICE_COOKIE, deviceCookie, knownDevice } from './known-device';

const before = process.env.NEXTAUTH_SECRET;
beforeAll(() => {
  process.env.NEXTAUTH_SECRET = 'a-secret-of-at-least-32-characters-for-tests';
  resetConfig();
});
afterAll(() => {
  if (before === undefined) delete process.env.NEXTAUTH_SECRET;
  else process.env.NEXTAUTH_SECRET = before;
  resetConfig();
});

describe('deviceCookie and knownDevice', () => {
  it('sets an HttpOnly cookie for /api/auth that proves a sign-in to its account only', async () => {
    const header = await deviceCookie('a@example.com', true);
    expect(header).toMatch(/^silo-device=[\w-]+\.[\w-]+; Max-Age=15552000; Path=\/api\/auth; HttpOnly; Secure; SameSite=Lax$/);
    expect(await deviceCookie('a@example.com', false)).not.toMatch(/Secure/);
    const sent = `other=1; ${header.split(';')[0]}; last=2`; // as the browser sends it back
    const value = cookieValue(sent, DEVICE_COOKIE);
    expect(await knownDevice(value, 'a@example.com')).toBe(value?.split('.')[0]);
    expect(await knownDevice(value, 'b@example.com')).toBeUndefined();
    expect(await knownDevice(`${value}x`, 'a@example.com')).toBeUndefined();
  });
});

describe('cookieValue', () => {
  it('reads a value, the first of a name, decoding percent-encoding', () => {
    expect(cookieValue('a=1; next-auth.session-token=x%20y; a=2', 'next-auth.session-token')).toBe('x y');
    expect(cookieValue('a=1; a=2', 'a')).toBe('1');
    expect(cookieValue(null, 'a')).toBeUndefined();
  });
  it('never throws, whatever the header holds; a value that is not valid percent-encoding is kept as sent', () => {
    expect(cookieValue('next-auth.session-token=%', 'next-auth.session-token')).toBe('%');
    expect(cookieValue('next-auth.session-token=%E0%A4%A', 'next-auth.session-token')).toBe('%E0%A4%A');
    expect(cookieValue('novalue; __proto__=1; a=1', '__proto__')).toBe('1');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'a=;% "\u00e9\u0000') }), (h) => void cookieValue(h, 'a')),
      { numRuns: 3000 },
    );
  });
});
