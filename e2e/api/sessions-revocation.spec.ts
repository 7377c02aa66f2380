// Issue 9 (hostile review), item 13: console sessions end at once when their user's password
// changes or the user is removed (API and console pages alike), and the secret that signs them
// is a 0600 file in the data directory, never a value in the database.
import type { APIRequestContext } from '@playwright/test';
import { randomBytes, randomUUID } from 'node:crypto';
import { stat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { encode } from 'next-auth/jwt';
import pg from 'pg';
import { expect, test } from '../fixtures';
import { setupLinkIn, startServer } from '../fixtures/server';
import { expectError, signIn } from './helpers';

async function newUser(admin: APIRequestContext, data: { admin?: boolean } = {}) {
  const email = `s-${randomUUID().slice(0, 8)}@example.com`;
  const res = await admin.post('/admin/v1/users', { data: { email, name: 'S', password: 'first password', ...data } });
  expect(res.status(), await res.text()).toBe(201);
  return { id: (await res.json()).id as string, email };
}

/** Signed out everywhere: the API answers 401, next-auth has no session, pages send to /signin. */
async function expectSignedOut(ctx: APIRequestContext) {
  await expectError(await ctx.get('/admin/v1/me'), 401, 'unauthorized');
  expect(await (await ctx.get('/api/auth/session')).json()).toEqual({});
  const page = await ctx.get('/workspaces', { maxRedirects: 0 });
  expect(page.status()).toBe(307);
  expect(page.headers().location).toMatch(/\/signin$/);
}

test.describe('console sessions end at once', () => {
  test('a password change ends every session of that user at once', async ({ admin, playwright, server }) => {
    const user = await newUser(admin);
    const laptop = await signIn(playwright, server.url, user.email, 'first password');
    const phone = await signIn(playwright, server.url, user.email, 'first password');
    expect((await laptop.get('/admin/v1/me')).status()).toBe(200);
    expect((await laptop.get('/workspaces', { maxRedirects: 0 })).status()).toBe(200);

    // other changes leave sessions alone
    expect((await admin.patch(`/admin/v1/users/${user.id}`, { data: { name: 'Renamed' } })).status()).toBe(200);
    expect((await phone.get('/admin/v1/me')).status()).toBe(200);

    expect((await admin.patch(`/admin/v1/users/${user.id}`, { data: { password: 'second password' } })).status()).toBe(200);
    await expectSignedOut(laptop);
    await expectSignedOut(phone);
    const again = await signIn(playwright, server.url, user.email, 'second password');
    expect((await again.get('/admin/v1/me')).status()).toBe(200);
    for (const c of [laptop, phone, again]) await c.dispose();
  });

  test('a removed user is signed out at once; an admin cannot remove itself', async ({ admin, playwright, server }) => {
    const user = await newUser(admin);
    const ctx = await signIn(playwright, server.url, user.email, 'first password');
    expect((await ctx.get('/admin/v1/me')).status()).toBe(200);
    expect((await admin.delete(`/admin/v1/users/${user.id}`)).status()).toBe(204);
    await expectSignedOut(ctx);
    await expectError(await admin.get(`/admin/v1/users/${user.id}`), 404, 'not_found');
    await expectError(await admin.delete(`/admin/v1/users/${user.id}`), 404, 'not_found');

    const boss = await newUser(admin, { admin: true });
    const bossCtx = await signIn(playwright, server.url, boss.email, 'first password');
    await expectError(await bossCtx.delete(`/admin/v1/users/${boss.id}`, { headers: { Origin: server.url } }), 403, 'forbidden');
    const other = await newUser(admin);
    expect((await bossCtx.delete(`/admin/v1/users/${other.id}`, { headers: { Origin: server.url } })).status()).toBe(204);
    for (const c of [ctx, bossCtx]) await c.dispose();
  });

  /** A session cookie for `userId` signed with `secret`, as next-auth makes them. */
  async function mint(secret: string, userId: string) {
    const token = await encode({ secret, token: { sub: userId, sv: 0, email: 'x@example.com' }, maxAge: 3600 });
    return { Cookie: `next-auth.session-token=${token}` };
  }

  test('the session secret is a 0600 file in the data directory; no value in the database signs sessions', async ({ playwright }, info) => {
    const database = (info.project.use as { database?: 'pglite' | 'postgres' }).database ?? 'pglite';
    // On PostgreSQL a database of our own, so that this test can read all of it.
    let dbUrl: string | undefined;
    const base = process.env.TEST_DATABASE_URL;
    const dbName = `silo_secret_${randomBytes(6).toString('hex')}`;
    if (database === 'postgres') {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`CREATE DATABASE ${dbName}`);
      await c.end();
      const u = new URL(base!);
      u.pathname = `/${dbName}`;
      dbUrl = u.toString();
    }
    const s = await startServer({ database, env: dbUrl ? { DATABASE_URL: dbUrl } : {} });
    try {
      let link: string | undefined;
      await expect.poll(() => (link = setupLinkIn(s.output())), { timeout: 20_000 }).toBeTruthy();
      const token = new URL(link!).searchParams.get('token');
      const api = await playwright.request.newContext({ baseURL: s.url });
      // a signed file url, so that the database holds its url-signing secret
      const owner = await (
        await api.post('/admin/v1/owners', { headers: { Authorization: `Bearer ${s.adminKey}` }, data: { name: 'O' } })
      ).json();
      const key = { Authorization: `Bearer ${owner.api_keys[0].key}` };
      const entry = await (await api.post('/silo/v1/entries', { headers: key, data: {} })).json();
      const inline = await api.post(`/silo/v1/entries/${entry.id}/files`, {
        headers: key,
        data: { name: 'a.txt', data: Buffer.from('a').toString('base64') },
      });
      expect((await inline.json()).url).toContain('sig=');
      const made = await api.post('/admin/v1/setup', {
        data: { token, name: 'Root', email: 'root@example.com', password: 'root password' },
      });
      expect(made.status()).toBe(201);
      const adminId = (await made.json()).id;
      // a real sign-in makes (or reads) the secret file
      await (await signIn(playwright, s.url, 'root@example.com', 'root password')).dispose();

      const file = path.join(s.dataDir, 'session-secret');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const secret = (await readFile(file, 'utf8')).trim();
      expect((await api.get('/admin/v1/me', { headers: await mint(secret, adminId) })).status()).toBe(200);

      if (dbUrl) {
        const c = new pg.Client({ connectionString: dbUrl });
        await c.connect();
        const rows = (await c.query('SELECT name, value FROM settings')).rows as Array<{ name: string; value: string }>;
        await c.end();
        expect(rows.map((r) => r.name)).toContain('signing_secret');
        expect(rows.map((r) => r.value)).not.toContain(secret);
        for (const r of rows)
          await expectError(await api.get('/admin/v1/me', { headers: await mint(r.value, adminId) }), 401, 'unauthorized');
      }
      await api.dispose();
    } finally {
      await s.stop();
      if (dbUrl) {
        const c = new pg.Client({ connectionString: base });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await c.end();
      }
    }
  });
});
