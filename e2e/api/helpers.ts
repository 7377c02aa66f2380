// Small helpers for the API suite: hashing, entry creation, error-shape assertions.
import { createHash, randomUUID } from 'node:crypto';
import type { APIRequestContext, APIResponse, PlaywrightWorkerArgs } from '@playwright/test';
import { bearer, expect } from '../fixtures';

export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** Asserts the error body (docs/api.md, Errors) and returns it. */
export async function expectError(res: APIResponse, status: number, key?: string) {
  expect(res.status(), await res.text()).toBe(status);
  expect(res.headers()['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers()['x-request-id']).toBeTruthy();
  const body = await res.json();
  expect(body.code).toBe(status);
  expect(typeof body.message).toBe('string');
  expect(body.key).toMatch(/^[a-z0-9_]+$/);
  if (key) expect(body.key).toBe(key);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+|node_modules|SELECT |prisma/i);
  return body as { code: number; key: string; message: string; fields?: Record<string, string> };
}

export async function createEntry(request: APIRequestContext, key: string, data: Record<string, unknown> = {}) {
  const res = await request.post('/silo/v1/entries', { headers: bearer(key), data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; [k: string]: unknown };
}

export async function inlineFile(request: APIRequestContext, key: string, entryId: string, body: Record<string, unknown>) {
  const res = await request.post(`/silo/v1/entries/${entryId}/files`, { headers: bearer(key), data: body });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

export const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');

/** Signs in to the console through next-auth's credentials flow; the context carries the session cookie. */
export async function signIn(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string, email: string, password: string) {
  const ctx = await playwright.request.newContext({ baseURL });
  const { csrfToken } = await (await ctx.get('/api/auth/csrf')).json();
  const res = await ctx.post('/api/auth/callback/credentials', { form: { csrfToken, email, password, json: 'true' }, maxRedirects: 0 });
  expect([200, 302]).toContain(res.status());
  expect((await (await ctx.get('/api/auth/session')).json())?.user?.email).toBe(email);
  return ctx;
}

/** A console user made by the admin key: an administrator, or a member of `owner_ids`. */
export async function newUser(admin: APIRequestContext, data: { admin?: boolean; owner_ids?: string[] }) {
  const email = `u-${randomUUID().slice(0, 8)}@example.com`;
  const res = await admin.post('/admin/v1/users', { data: { email, name: 'U', password: 'a console password', ...data } });
  expect(res.status(), await res.text()).toBe(201);
  return { email, password: 'a console password' };
}

/** An enrollment token of a new untrusted app for `ownerId`'s live environment. */
export async function enrollmentToken(admin: APIRequestContext, request: APIRequestContext, ownerId: string) {
  const app = await (await admin.post('/admin/v1/apps', { data: { name: 'Invoicer', trusted: false } })).json();
  expect((await admin.post('/admin/v1/enrollments', { data: { app_id: app.id, owner_id: ownerId } })).status()).toBe(201);
  const auth = await request.post('/access/v1/enrollment/authorize', {
    data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: ownerId },
  });
  expect(auth.status(), await auth.text()).toBe(200);
  return (await auth.json()).token as string;
}
