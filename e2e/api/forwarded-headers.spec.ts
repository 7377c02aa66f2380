// Issue 20, item 6: X-Forwarded-Host and X-Forwarded-Proto count only from TRUSTED_PROXIES (as
// X-Forwarded-For does). From anyone else, urls are built on the Host header and the scheme the
// server listens with, and a console mutation's Origin is compared with Host. Even a trusted
// proxy's values must be http/https and a host: anything else is 400. PUBLIC_URL is unset here.
// On the old code the stranger's headers became the file urls (`javascript://evil.example/…`) and
// next-auth's (`https://evil.example/…`).
import { type TestInfo, test as plain } from '@playwright/test';
import { startServer, type SiloServer } from '../fixtures/server';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, inlineFile, sha256, signIn } from './helpers';

const SPOOFED = { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'javascript' };

test.describe('without a trusted proxy', () => {
  test('file urls, links and Location use the Host header and http, whatever X-Forwarded-* say', async ({ request, newOwner, server }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const auth = { ...bearer(liveKey), ...SPOOFED };
    const placeholder = await request.post(`/silo/v1/entries/${entry.id}/files`, {
      headers: auth,
      data: { name: 'a.txt', mime: 'text/plain', sha256: sha256('abc'), size: 3 },
    });
    expect(placeholder.status()).toBe(201);
    expect((await placeholder.json()).url.startsWith(`${server.url}/silo/v1/files/`)).toBe(true);
    const file = await inlineFile(request, liveKey, entry.id, { name: 'b.txt', data: b64('b') });
    const link = await request.post(`/silo/v1/entries/${entry.id}/files/${file.id}/links`, { headers: auth, data: { expires_in: 60 } });
    expect((await link.json()).url.startsWith(`${server.url}/silo/v1/files/`)).toBe(true);
    const listed = await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: auth });
    for (const f of (await listed.json()).list) expect(f.url.startsWith(`${server.url}/`)).toBe(true);
    // next-auth (AUTH_TRUST_HOST) builds the console's urls on the same origin: scripts/serve.mjs drops the headers
    const providers = await (await request.get('/api/auth/providers', { headers: SPOOFED })).json();
    expect(providers.credentials.callbackUrl).toBe(`${server.url}/api/auth/callback/credentials`);
    // a Host a URL cannot hold is refused with the error body
    await expectError(
      await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: { ...bearer(liveKey), Host: 'a b' } }),
      400,
      'bad_request',
    );
  });

  test("a console mutation naming the forwarded host as its Origin is refused (it is not the server's)", async ({
    admin,
    newOwner,
    playwright,
    server,
  }) => {
    const owner = await newOwner();
    const email = `fwd-${Date.now()}@example.com`;
    expect(
      (await admin.post('/admin/v1/users', { data: { email, password: 'correct horse battery', owner_ids: [owner.id] } })).status(),
    ).toBe(201);
    const ctx = await signIn(playwright, server.url, email, 'correct horse battery');
    const headers = { 'X-Silo-Owner': owner.id, 'X-Forwarded-Host': 'evil.example', Origin: 'http://evil.example' };
    await expectError(await ctx.post('/silo/v1/entries', { headers, data: { name: 'csrf' } }), 403, 'forbidden');
    expect(
      (await ctx.post('/silo/v1/entries', { headers: { 'X-Silo-Owner': owner.id, Origin: server.url }, data: { name: 'ok' } })).status(),
    ).toBe(201);
    await ctx.dispose();
  });
});

plain.describe('behind a trusted proxy (TRUSTED_PROXIES has the loopback)', () => {
  let server: SiloServer | undefined;
  plain.beforeAll(async ({}, info: TestInfo) => {
    plain.setTimeout(180_000);
    const database = (info.project.use as { database?: 'pglite' | 'postgres' }).database ?? 'pglite';
    server = await startServer({ database, env: { TRUSTED_PROXIES: '127.0.0.1,::1' } });
  });
  plain.afterAll(async () => server?.stop());

  plain(
    'urls follow X-Forwarded-Host and X-Forwarded-Proto; values that are not a host or http/https answer 400',
    async ({ playwright }) => {
      const s = server!;
      const admin = await playwright.request.newContext({ baseURL: s.url, extraHTTPHeaders: { Authorization: `Bearer ${s.adminKey}` } });
      const owner = await (await admin.post('/admin/v1/owners', { data: { name: 'Proxied' } })).json();
      const key = owner.api_keys.find((k: { sandbox: boolean }) => !k.sandbox).key as string;
      const api = await playwright.request.newContext({ baseURL: s.url, extraHTTPHeaders: bearer(key) });
      const entry = await (await api.post('/silo/v1/entries', { data: { name: 'e' } })).json();
      const files = `/silo/v1/entries/${entry.id}/files`;
      const placeholder = { name: 'a.txt', mime: 'text/plain', sha256: sha256('abc'), size: 3 };

      const proxied = await api.post(files, {
        headers: { 'X-Forwarded-Host': 'files.example.com', 'X-Forwarded-Proto': 'https' },
        data: placeholder,
      });
      expect(proxied.status()).toBe(201);
      expect((await proxied.json()).url).toMatch(/^https:\/\/files\.example\.com\/silo\/v1\/files\//);
      const providers = await (
        await api.get('/api/auth/providers', { headers: { 'X-Forwarded-Host': 'files.example.com', 'X-Forwarded-Proto': 'https' } })
      ).json();
      expect(providers.credentials.callbackUrl).toBe('https://files.example.com/api/auth/callback/credentials');
      const direct = await api.post(files, { data: placeholder });
      expect((await direct.json()).url.startsWith(`${s.url}/silo/v1/files/`)).toBe(true);

      for (const headers of <Record<string, string>[]>[
        { 'X-Forwarded-Proto': 'javascript' },
        { 'X-Forwarded-Proto': 'ftp' },
        { 'X-Forwarded-Host': 'evil.example/x?' },
        { 'X-Forwarded-Host': 'user@evil.example' },
      ])
        await expectError(await api.post(files, { headers, data: placeholder }), 400, 'bad_request');
      await api.dispose();
      await admin.dispose();
    },
  );
});
