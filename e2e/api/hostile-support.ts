// The hostile suite's parts: generators of bad input (strings PostgreSQL cannot store, broken
// encodings, wrong types), the contract check every answer must pass, and snapshots of stored data.
import { validateHeaderValue } from 'node:http';
import fc from 'fast-check';
import type { APIRequestContext, APIResponse, PlaywrightWorkerArgs } from '@playwright/test';
import { expect } from '../fixtures';

/** Strings that broke something once, or would: NUL, unpaired surrogates, bad percent-encoding, header breakers. */
export const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '\udfff\ud800',
  '%',
  '%00',
  '%zz',
  '%E0%A4%A',
  '../..',
  '\r\n',
  'text/plain; x=\u0100',
  'null',
  '[]',
  '{}',
  'x'.repeat(300),
  'é',
  '😀',
  '\u202e',
  '\ufeff',
  '\uffff',
  '__proto__',
  'constructor',
  '00000000-0000-0000-0000-000000000000',
  'NOT-A-UUID',
  '1e999',
  '-1',
  '0x10',
  'true',
];

/** Any UTF-16 code unit, lone surrogates and NUL included. */
const codeUnit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('\u0000', '\ud800', '\udc00', '%', '"', '\\'),
);
export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ unit: codeUnit, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** A body for a route: its own fields, each sometimes valid (to reach deeper code) and often hostile. */
export function bodyFor(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(Object.entries(valid).map(([k, v]) => [k, fc.oneof(fc.constant(v), hostileJson)]));
  return fc.oneof(
    { weight: 4, arbitrary: fc.record(fields, { requiredKeys: [] }) },
    { weight: 1, arbitrary: hostileJson },
    { weight: 1, arbitrary: fc.dictionary(hostileString, hostileJson, { maxKeys: 4 }) },
  );
}

/** A raw body: JSON of a value, or text that is not JSON at all. */
export const rawBody = (body: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 4, arbitrary: body.map((v) => JSON.stringify(v) ?? 'null') }, { weight: 1, arbitrary: hostileString });

export const contentType = fc.option(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/vnd.x+json',
    'text/plain',
    'application/octet-stream',
    'multipart/form-data; boundary=x',
    'json',
    ';',
    '',
  ),
  { nil: undefined, freq: 4 },
);

/** A header value Node will send; values it refuses to send are not what this suite tests. */
export const headerValue = (arb: fc.Arbitrary<string>) =>
  arb.filter((v) => {
    try {
      validateHeaderValue('x', v);
      return /^[\x20-\x7e\t]*$/.test(v);
    } catch {
      return false;
    }
  });

/** A path segment: real ids, other UUIDs, hostile strings percent-encoded (malformed % in paths is the server's, not ours). */
export const segment = (...real: string[]) =>
  fc.oneof(
    fc.constantFrom(...real),
    fc.uuid(),
    hostileString.map((s) => encodeURIComponent(s.replace(/\p{Cs}/gu, '\ufffd')) || 'x'),
  );

/** Cursors of the right form with wrong contents: a bad id, an impossible or unrepresentable time. */
function cursorOf(v: unknown) {
  return Buffer.from(JSON.stringify(v)).toString('base64url');
}
export const CURSORS = [
  cursorOf(['2026-01-01T00:00:00.000Z', 'not-a-uuid']),
  cursorOf([new Date(-8.64e15).toISOString(), '00000000-0000-0000-0000-000000000000']),
  cursorOf([new Date(8.64e15).toISOString(), '00000000-0000-0000-0000-000000000000']),
  cursorOf([-1e20, '00000000-0000-0000-0000-000000000000']),
  cursorOf(['2026-01-01T00:00:00.000Z', '\u0000']),
  // A time JavaScript holds and PostgreSQL does not (it has no year 0000): was a 500.
  cursorOf(['0000-01-01T00:00:00.000Z', '00000000-0000-0000-0000-000000000000']),
  cursorOf(['0000-12-31T23:59:59.999Z', '00000000-0000-0000-0000-000000000000']),
  cursorOf({}),
  cursorOf('x'),
];
export const cursorValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...CURSORS),
  fc.tuple(hostileJson, hostileJson).map(([a, b]) => cursorOf([a, b])),
);

/** A query string of the parameters our routes read, with hostile and raw (undecodable) values. */
export const queryString = fc
  .array(
    fc.tuple(
      fc.constantFrom('limit', 'cursor', 'folder', 'folder_exact', 'key', 'q', 'owner_id', 'app_id', 'download', 'sig'),
      fc.oneof(
        hostileString.map((s) => encodeURIComponent(s.replace(/\p{Cs}/gu, '\ufffd'))),
        fc.constantFrom('%', '%00', '%ZZ', '%ED%A0%80', '0', '101', '1.5', '-1', '20'),
        cursorValue,
      ),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

/** Every answer: never 5xx; an error carries the contract's body with code === status. */
export async function expectContract(res: APIResponse, method: string, what: string) {
  const status = res.status();
  expect(status, `${what} → ${status} ${await res.text().catch(() => '')}`).toBeLessThan(500);
  if (status < 400 || method === 'HEAD') return;
  expect(res.headers()['content-type'], what).toBe('application/json; charset=utf-8');
  const body = await res.json();
  expect(body.code, what).toBe(status);
  expect(typeof body.key, what).toBe('string');
  expect(body.key, what).toMatch(/^[a-z0-9_]+$/);
  expect(typeof body.message, what).toBe('string');
  if (body.fields !== undefined) expect(typeof body.fields, what).toBe('object');
}

/** What an owner has stored: entries (live and sandbox) and, for one entry of each, files with history. */
export async function ownerSnapshot(
  request: APIRequestContext,
  keys: { live: string; sandbox: string },
  entries: { live: string; sandbox: string },
) {
  const get = async (path: string, key: string) => {
    const res = await request.get(path, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status(), path).toBe(200);
    return res.json();
  };
  return JSON.stringify(
    await Promise.all([
      get('/silo/v1/entries?limit=100', keys.live),
      get('/silo/v1/entries?limit=100', keys.sandbox),
      get(`/silo/v1/entries/${entries.live}`, keys.live),
      get(`/silo/v1/entries/${entries.sandbox}`, keys.sandbox),
    ]),
  );
}

/** What the instance has: owners with their keys, applications, users, enrollments. */
export async function adminSnapshot(admin: APIRequestContext) {
  const paths = ['/admin/v1/owners?limit=100', '/admin/v1/apps?limit=100', '/admin/v1/users', '/admin/v1/enrollments?limit=100'];
  return JSON.stringify(
    await Promise.all(
      paths.map(async (p) => {
        const res = await admin.get(p);
        expect(res.status(), p).toBe(200);
        return res.json();
      }),
    ),
  );
}

/** A signed-in console context; its session cookie as a Cookie header value. */
export async function signIn(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string, email: string, password: string) {
  const ctx = await playwright.request.newContext({ baseURL });
  const { csrfToken } = await (await ctx.get('/api/auth/csrf')).json();
  const res = await ctx.post('/api/auth/callback/credentials', { form: { csrfToken, email, password, json: 'true' }, maxRedirects: 0 });
  expect([200, 302]).toContain(res.status());
  const state = await ctx.storageState();
  const session = state.cookies.find((c) => c.name.endsWith('next-auth.session-token'));
  expect(session).toBeTruthy();
  await ctx.dispose();
  return `${session!.name}=${session!.value}`;
}
