// Console users on the API (docs/api.md, Credentials, Console pages): the session cookie, the
// same-origin rule for mutations, workspaces named with X-Silo-Owner, members confined to their
// workspaces, the one-time setup link, and the sign-in origin taken from the request.
import type { APIRequestContext } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { bearer, expect, test } from '../fixtures';
import { setupLinkIn, startServer } from '../fixtures/server';
import { b64, createEntry, expectError, inlineFile, signIn } from './helpers';

async function newUser(admin: APIRequestContext, data: { admin?: boolean; owner_ids?: string[] }) {
  const email = `u-${randomUUID().slice(0, 8)}@example.com`;
  const res = await admin.post('/admin/v1/users', { data: { email, name: 'U', password: 'correct horse battery', ...data } });
  expect(res.status(), await res.text()).toBe(201);
  return { email, password: 'correct horse battery' };
}

test.describe('workspaces', () => {
  test('a member works in its own workspace and nowhere else', async ({ admin, request, newOwner, playwright, server }) => {
    const a = await newOwner('A');
    const b = await newOwner('B');
    const entryA = await createEntry(request, a.liveKey, { name: 'mine' });
    const entryB = await createEntry(request, b.liveKey, { name: 'theirs' });
    const fileB = await inlineFile(request, b.liveKey, entryB.id, { name: 'b.txt', data: b64('b') });
    const user = await newUser(admin, { owner_ids: [a.id] });
    const ctx = await signIn(playwright, server.url, user.email, user.password);
    const origin = { Origin: server.url };

    const list = await ctx.get('/silo/v1/entries', { headers: { 'X-Silo-Owner': a.id } });
    expect((await list.json()).list.map((e: { id: string }) => e.id)).toEqual([entryA.id]);
    await expectError(await ctx.get('/silo/v1/entries', { headers: { 'X-Silo-Owner': b.id } }), 404, 'not_found');
    await expectError(await ctx.get('/silo/v1/entries'), 400, 'bad_request');
    expect((await ctx.get(`/silo/v1/entries/${entryA.id}`)).status()).toBe(200);
    await expectError(await ctx.get(`/silo/v1/entries/${entryB.id}`), 404, 'not_found');
    await expectError(await ctx.get(`/silo/v1/entries/${entryB.id}/files/${fileB.id}`), 404, 'not_found');
    const owners = await (await ctx.get('/admin/v1/owners')).json();
    expect(owners.list.map((o: { id: string }) => o.id)).toEqual([a.id]);
    await expectError(await ctx.get(`/admin/v1/owners/${b.id}`), 404);
    await expectError(await ctx.post('/admin/v1/owners', { headers: origin, data: { name: 'nope' } }), 403, 'forbidden');

    // mutations need the console's own Origin
    await expectError(await ctx.post('/silo/v1/entries', { headers: { 'X-Silo-Owner': a.id }, data: { name: 'x' } }), 403, 'forbidden');
    await expectError(
      await ctx.post('/silo/v1/entries', { headers: { 'X-Silo-Owner': a.id, Origin: 'http://evil.example' }, data: { name: 'x' } }),
      403,
      'forbidden',
    );
    const made = await ctx.post('/silo/v1/entries', { headers: { 'X-Silo-Owner': a.id, ...origin }, data: { name: 'from the console' } });
    expect(made.status()).toBe(201);
    const sandbox = await ctx.post('/silo/v1/entries', {
      headers: { 'X-Silo-Owner': a.id, 'X-Silo-Sandbox': 'true', ...origin },
      data: { name: 'sb' },
    });
    expect((await sandbox.json()).sandbox).toBe(true);
    expect((await request.get(`/silo/v1/entries/${(await made.json()).id}`, { headers: bearer(a.liveKey) })).status()).toBe(200);

    // sign out: the cookie no longer works
    const { csrfToken } = await (await ctx.get('/api/auth/csrf')).json();
    await ctx.post('/api/auth/signout', { form: { csrfToken, json: 'true' }, maxRedirects: 0 });
    await expectError(await ctx.get('/silo/v1/entries', { headers: { 'X-Silo-Owner': a.id } }), 401, 'unauthorized');
    await ctx.dispose();
  });

  test('a console admin sees every workspace; wrong passwords do not sign in', async ({ admin, request, newOwner, playwright, server }) => {
    const b = await newOwner('B');
    const entryB = await createEntry(request, b.liveKey);
    const user = await newUser(admin, { admin: true });
    const ctx = await signIn(playwright, server.url, user.email, user.password);
    expect((await ctx.get(`/silo/v1/entries/${entryB.id}`)).status()).toBe(200);
    const created = await ctx.post('/admin/v1/owners', { headers: { Origin: server.url }, data: { name: 'By admin' } });
    expect(created.status()).toBe(201);
    await ctx.dispose();

    const bad = await playwright.request.newContext({ baseURL: server.url });
    const { csrfToken } = await (await bad.get('/api/auth/csrf')).json();
    await bad.post('/api/auth/callback/credentials', {
      form: { csrfToken, email: user.email, password: 'wrong password', json: 'true' },
      maxRedirects: 0,
    });
    expect(await (await bad.get('/api/auth/session')).json()).toEqual({});
    await bad.dispose();
  });
});

test.describe('the ready line', () => {
  // Before, it printed PUBLIC_URL as if the server listened there ("Silo is ready at https://…").
  test('names where the server listens and, apart, its public URL', async ({ server, database }) => {
    expect(server.output()).toMatch(/Silo is ready: listening on http:\/\/127\.0\.0\.1:\d+, open http:\/\/localhost:\d+ /);
    const s = await startServer({ database, env: { PUBLIC_URL: 'https://silo.example.com' } });
    try {
      expect(s.output()).toMatch(/Silo is ready: listening on http:\/\/127\.0\.0\.1:\d+, public URL https:\/\/silo\.example\.com /);
      expect(setupLinkIn(s.output())).toMatch(/^https:\/\/silo\.example\.com\/setup\?token=/);
    } finally {
      await s.stop();
    }
  });
});

test.describe('the setup link', () => {
  test('a fresh instance prints a one-time setup link', async ({ server }) => {
    expect(server.output()).toMatch(/One-time setup link \(creates the first admin\): http:\/\/\S+\/setup\?token=[A-Za-z0-9_-]{20,}/);
  });

  test('the setup endpoint refuses a wrong token', async ({ request }) => {
    await expectError(
      await request.post('/admin/v1/setup', { data: { token: 'wrong', email: 'a@b.c', password: 'long enough' } }),
      403,
      'forbidden',
    );
  });
});

test.describe('sign-in', () => {
  test('sign-in takes its origin from the request: no NEXTAUTH_URL warning, its url is this server', async ({
    admin,
    playwright,
    server,
  }) => {
    const user = await newUser(admin, { admin: true });
    const ctx = await playwright.request.newContext({ baseURL: server.url });
    const { csrfToken } = await (await ctx.get('/api/auth/csrf')).json();
    const res = await ctx.post('/api/auth/callback/credentials', {
      form: { csrfToken, email: user.email, password: user.password, json: 'true' },
      maxRedirects: 0,
    });
    const url = res.status() === 302 ? res.headers().location : (await res.json()).url;
    expect(new URL(url).origin).toBe(new URL(server.url).origin);
    expect(server.output()).not.toMatch(/NEXTAUTH_URL/);
    await ctx.dispose();
  });
});
