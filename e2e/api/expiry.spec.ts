// Lifetimes and rate limits: a server whose tokens and upload urls live one second and whose
// authorize endpoint takes four calls a minute from one client.
import { type APIResponse, test as base, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { startServer, type SiloServer } from '../fixtures/server';
import { expectError, sha256 } from './helpers';

const test = base.extend<object, { short: SiloServer; database: 'pglite' | 'postgres' }>({
  database: ['pglite', { option: true, scope: 'worker' }],
  short: [
    async ({ database }, use) => {
      const s = await startServer({
        database,
        env: { TOKEN_TTL_SECONDS: '1', UPLOAD_URL_TTL_SECONDS: '1', RATE_LIMIT_AUTHORIZE_PER_MINUTE: '4' },
      });
      await use(s);
      await s.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

test.describe('short lifetimes and rate limits', () => {
  test('expired tokens answer token_expired; expired upload urls upload_url_expired until the request is repeated', async ({
    short,
    playwright,
  }) => {
    const admin = await playwright.request.newContext({
      baseURL: short.url,
      extraHTTPHeaders: { Authorization: `Bearer ${short.adminKey}` },
    });
    const api = await playwright.request.newContext({ baseURL: short.url });
    const owner = await (await admin.post('/admin/v1/owners', { data: { name: 'T' } })).json();
    const key = owner.api_keys.find((k: { sandbox: boolean }) => !k.sandbox).key;
    const app = await (await admin.post('/admin/v1/apps', { data: { name: 'A', trusted: true } })).json();
    const e = await (
      await api.post('/access/v1/enrollment/authorize', {
        data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
      })
    ).json();
    const entry = await (await api.post('/silo/v1/entries', { headers: { Authorization: `Bearer ${key}` }, data: {} })).json();
    const bytes = randomBytes(1000);
    const req = { name: 'x.bin', mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length };
    const id = '5f0c6a52-3c1e-4c1e-9a55-0c2b8f0f0a01';
    const p = await (
      await api.put(`/silo/v1/entries/${entry.id}/files/${id}`, { headers: { Authorization: `Bearer ${key}` }, data: req })
    ).json();
    // until each has lived its second, as the server judges it (neither poll changes anything)
    await expect
      .poll(async () => (await api.get('/silo/v1/entries', { headers: { Authorization: `Bearer ${e.token}` } })).status())
      .toBe(401);
    await expectError(await api.get('/silo/v1/entries', { headers: { Authorization: `Bearer ${e.token}` } }), 401, 'token_expired');
    await expect.poll(async () => (await api.head(p.url)).status()).toBe(403);
    await expectError(await api.put(p.url, { data: bytes }), 403, 'upload_url_expired');
    const again = await api.put(`/silo/v1/entries/${entry.id}/files/${id}`, { headers: { Authorization: `Bearer ${key}` }, data: req });
    expect(again.status()).toBe(200);
    const fresh = await again.json();
    expect((await api.put(fresh.url, { data: bytes })).status()).toBe(200);
    await admin.dispose();
    await api.dispose();
  });

  test('authorize is rate limited per client with Retry-After', async ({ short, playwright }) => {
    const admin = await playwright.request.newContext({
      baseURL: short.url,
      extraHTTPHeaders: { Authorization: `Bearer ${short.adminKey}` },
    });
    const api = await playwright.request.newContext({ baseURL: short.url });
    const app = await (await admin.post('/admin/v1/apps', { data: { name: 'R', trusted: true } })).json();
    const body = { client_id: app.client_id, client_secret: 'silo_cs_wrong', owner_id: '00000000-0000-4000-8000-000000000000' };
    const statuses: number[] = [];
    let last: APIResponse | undefined;
    for (let i = 0; i < 6; i++) {
      last = await api.post('/access/v1/enrollment/authorize', { data: body, headers: { 'X-Forwarded-For': `10.9.9.${i}` } });
      statuses.push(last.status());
    }
    // X-Forwarded-For from an untrusted peer changes nothing: the test before this one spent a call
    // of this address's four a minute (docs/api.md, Client address and rate limits)
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    await expectError(last!, 429, 'rate_limited');
    expect(Number(last!.headers()['retry-after'])).toBeGreaterThan(0);
    await admin.dispose();
    await api.dispose();
  });
});
