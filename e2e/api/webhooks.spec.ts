// Webhooks over HTTP (docs/api.md, Webhooks): endpoints per workspace and environment, the secret
// shown once, webhook.* records, the event log's records delivered to a real receiver on loopback
// exactly as GET /silo/v1/events shows them and signed (standardwebhooks verifies), a failed
// attempt retried with the same webhook-id, test messages, rotation; and, on a server with the
// default rules, http:// and private addresses refused.
import type { APIRequestContext } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { type Receiver, startReceiver } from '../../lib/testing/webhook-receiver';
import { bearer, expect, test, WEBHOOKS_TO_LOOPBACK } from '../fixtures';
import { startServer, type SiloServer } from '../fixtures/server';
import { b64, createEntry, expectError, inlineFile } from './helpers';

// This file's server delivers to loopback over http (the receiver); the refusals start their own.
test.use({ serverEnv: WEBHOOKS_TO_LOOPBACK });

let rx: Receiver;
test.beforeEach(async () => {
  rx = await startReceiver();
});
test.afterEach(() => rx.close());

const headersOf = (r: Receiver['received'][number]) => r.headers as Record<string, string>;

async function addWebhook(request: APIRequestContext, key: string, data: Record<string, unknown> = {}) {
  const res = await request.post('/silo/v1/webhooks', { headers: bearer(key), data: { url: rx.url, ...data } });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

async function eventsOf(request: APIRequestContext, key: string) {
  const res = await request.get('/silo/v1/events?limit=100', { headers: bearer(key) });
  expect(res.status()).toBe(200);
  return (await res.json()).list as { id: string; seq: number; type: string; data: Record<string, unknown> }[];
}

test.describe('webhook endpoints', () => {
  test('are made, read, listed, edited and removed per environment, each change on the record', async ({ request, newOwner }) => {
    const o = await newOwner();
    const made = await addWebhook(request, o.liveKey, { types: ['file.stored', 'entry.deleted'], description: 'ERP' });
    expect(made).toMatchObject({ types: ['file.stored', 'entry.deleted'], description: 'ERP', sandbox: false, disabled: false });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const got = await (await request.get(`/silo/v1/webhooks/${made.id}`, { headers: bearer(o.liveKey) })).json();
    expect(got).not.toHaveProperty('secret');
    expect(got).toEqual(Object.fromEntries(Object.entries(made).filter(([k]) => k !== 'secret')));
    const list = await (await request.get('/silo/v1/webhooks', { headers: bearer(o.liveKey) })).json();
    expect(list.list.map((h: { id: string }) => h.id)).toEqual([made.id]);
    // the sandbox and another workspace see none of it
    expect((await (await request.get('/silo/v1/webhooks', { headers: bearer(o.sandboxKey) })).json()).list).toEqual([]);
    await expectError(await request.get(`/silo/v1/webhooks/${made.id}`, { headers: bearer(o.sandboxKey) }), 404, 'not_found');
    const other = await newOwner('Other');
    await expectError(await request.delete(`/silo/v1/webhooks/${made.id}`, { headers: bearer(other.liveKey) }), 404, 'not_found');

    const patched = await request.patch(`/silo/v1/webhooks/${made.id}`, {
      headers: bearer(o.liveKey),
      data: { disabled: true, types: ['*'] },
    });
    expect(patched.status()).toBe(200);
    expect(await patched.json()).toMatchObject({ disabled: true, disabled_reason: 'manual', types: ['*'] });
    expect((await request.delete(`/silo/v1/webhooks/${made.id}`, { headers: bearer(o.liveKey) })).status()).toBe(204);
    await expectError(await request.get(`/silo/v1/webhooks/${made.id}`, { headers: bearer(o.liveKey) }), 404, 'not_found');
    const types = (await eventsOf(request, o.liveKey)).filter((e) => e.type.startsWith('webhook.'));
    expect(types.map((e) => e.type)).toEqual(['webhook.created', 'webhook.updated', 'webhook.deleted']);
    expect(types[1].data).toEqual({
      webhook_id: made.id,
      before: { types: ['file.stored', 'entry.deleted'], disabled: false, disabled_reason: null },
      after: { types: ['*'], disabled: true, disabled_reason: 'manual' },
    });
    expect(JSON.stringify(types)).not.toContain(made.secret.slice(6));
  });

  test("are the workspace key's and the console's: an application's token gets 403", async ({ request, admin, newOwner }) => {
    const o = await newOwner();
    const app = await (await admin.post('/admin/v1/apps', { data: { name: 'Invoicer' } })).json();
    const enrolled = await request.post('/access/v1/enrollment/authorize', {
      headers: { 'X-Owner-Key': o.liveKey },
      data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: o.id },
    });
    expect(enrolled.status()).toBe(200);
    const { token } = await enrolled.json();
    await expectError(await request.get('/silo/v1/webhooks', { headers: bearer(token) }), 403, 'forbidden');
    await expectError(await request.post('/silo/v1/webhooks', { headers: bearer(token), data: { url: rx.url } }), 403, 'forbidden');
    await expectError(await admin.get('/silo/v1/webhooks'), 403, 'forbidden');
    // nor does it read an endpoint's URL in the event log: the records keep its origin only
    const secretUrl = `${rx.url}/T0/B0/SECRETPATH?token=s3cret`;
    await addWebhook(request, o.liveKey, { url: secretUrl });
    for (const key of [token, o.liveKey]) {
      const res = await request.get('/silo/v1/events?type=webhook.created', { headers: bearer(key) });
      expect(res.status()).toBe(200);
      const [record] = (await res.json()).list;
      expect(record.data.url).toBe(new URL(rx.url).origin);
      expect(JSON.stringify(record)).not.toMatch(/SECRETPATH|s3cret/);
    }
  });

  test('validate types against the catalogue and the url', async ({ request, newOwner }) => {
    const o = await newOwner();
    for (const [data, field] of [
      [{ url: rx.url, types: ['file.nope'] }, 'types.0'],
      [{ url: rx.url, types: ['*', 'file.stored'] }, 'types'],
      [{ url: rx.url, types: [] }, 'types'],
      [{ url: rx.url, types: ['file.stored', 'file.stored'] }, 'types'],
      [{ url: 'ftp://example.com/x' }, 'url'],
      [{ url: 'https://user:pw@example.com/x' }, 'url'],
      [{ url: `https://example.com/${'a'.repeat(2048)}` }, 'url'],
      [{ url: rx.url, secret: 'whsec_mine' }, ''],
    ] as const) {
      const res = await request.post('/silo/v1/webhooks', { headers: bearer(o.liveKey), data });
      const body = await expectError(res, 422, 'validation');
      if (field) expect(Object.keys(body.fields ?? {}), JSON.stringify(data).slice(0, 80)).toContain(field);
    }
  });
});

test.describe('deliveries', () => {
  test("send the workspace's records as the events API shows them, signed, and list them", async ({ request, newOwner }) => {
    const o = await newOwner();
    const hook = await addWebhook(request, o.liveKey);
    const entry = await createEntry(request, o.liveKey, { name: 'Invoice 1' });
    await inlineFile(request, o.liveKey, entry.id, { name: 'inv.xml', mime: 'application/xml', data: b64('<i/>') });
    await expect.poll(() => rx.received.length, { timeout: 15_000 }).toBe(3);
    const all = await eventsOf(request, o.liveKey);
    // what came after the endpoint's own webhook.created
    const from = all.find((e) => e.type === 'webhook.created')?.seq ?? 0;
    const records = all.filter((e) => e.seq > from);
    expect(records.map((r) => r.type)).toEqual(['entry.created', 'file.created', 'file.stored']);
    const wh = new Webhook(hook.secret);
    const byId = new Map(rx.received.map((r) => [headersOf(r)['webhook-id'], r]));
    for (const record of records) {
      const got = byId.get(record.id);
      expect(got?.body).toBe(JSON.stringify(record));
      expect(wh.verify(got?.body as string, headersOf(got as Receiver['received'][number]))).toEqual(record);
    }
    // the sandbox's records go to the sandbox's endpoints only
    await createEntry(request, o.sandboxKey, { name: 'Sandboxed' });
    const list = await (await request.get(`/silo/v1/webhooks/${hook.id}/deliveries`, { headers: bearer(o.liveKey) })).json();
    // newest first; the records of one scan share their created_at
    expect(list.list.map((d: { seq: number }) => d.seq).sort()).toEqual(records.map((r) => r.seq).sort());
    expect(list.list[0]).toMatchObject({ state: 'succeeded', attempt_count: 1, attempts: [{ status: 204, error: null }] });
    expect(rx.received).toHaveLength(3);
  });

  test('retry a failed attempt with the same webhook-id, and on request', async ({ request, newOwner }) => {
    const o = await newOwner();
    const hook = await addWebhook(request, o.liveKey, { types: ['entry.created'] });
    rx.answer = (_, n) => (n === 1 ? { status: 503, body: 'busy' } : { status: 200 });
    const entry = await createEntry(request, o.liveKey);
    await expect.poll(() => rx.received.length, { timeout: 20_000 }).toBe(2);
    expect(rx.received[1].at - rx.received[0].at).toBeGreaterThanOrEqual(4_500);
    expect(headersOf(rx.received[1])['webhook-id']).toBe(headersOf(rx.received[0])['webhook-id']);
    const [d] = (await (await request.get(`/silo/v1/webhooks/${hook.id}/deliveries`, { headers: bearer(o.liveKey) })).json()).list;
    expect(d).toMatchObject({ entry_id: entry.id, state: 'succeeded', attempt_count: 2 });
    expect(d.attempts.map((a: { status: number; body: string }) => [a.status, a.body])).toEqual([
      [200, ''],
      [503, 'busy'],
    ]);
    const again = await request.post(`/silo/v1/webhooks/${hook.id}/deliveries/${d.id}/retry`, { headers: bearer(o.liveKey) });
    expect(again.status()).toBe(202);
    await expect.poll(() => rx.received.length, { timeout: 10_000 }).toBe(3);
    expect(headersOf(rx.received[2])['webhook-id']).toBe(headersOf(rx.received[0])['webhook-id']);
    await expectError(
      await request.post(`/silo/v1/webhooks/${hook.id}/deliveries/${hook.id}/retry`, { headers: bearer(o.liveKey) }),
      404,
      'not_found',
    );
  });

  test('send a test message, and sign with both secrets after a rotation', async ({ request, newOwner }) => {
    const o = await newOwner();
    const hook = await addWebhook(request, o.liveKey, { types: ['file.stored'] });
    const test = await request.post(`/silo/v1/webhooks/${hook.id}/test`, { headers: bearer(o.liveKey) });
    expect(test.status()).toBe(202);
    await expect.poll(() => rx.received.length, { timeout: 10_000 }).toBe(1);
    const message = new Webhook(hook.secret).verify(rx.received[0].body, headersOf(rx.received[0]));
    expect(message).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id }, entry_id: null });
    const rotated = await request.post(`/silo/v1/webhooks/${hook.id}/rotate-secret`, { headers: bearer(o.liveKey) });
    expect(rotated.status()).toBe(200);
    const { secret } = await rotated.json();
    expect(secret).not.toBe(hook.secret);
    await request.post(`/silo/v1/webhooks/${hook.id}/test`, { headers: bearer(o.liveKey) });
    await expect.poll(() => rx.received.length, { timeout: 10_000 }).toBe(2);
    for (const s of [hook.secret, secret]) expect(new Webhook(s).verify(rx.received[1].body, headersOf(rx.received[1]))).toBeTruthy();
    await request.patch(`/silo/v1/webhooks/${hook.id}`, { headers: bearer(o.liveKey), data: { disabled: true } });
    await expectError(await request.post(`/silo/v1/webhooks/${hook.id}/test`, { headers: bearer(o.liveKey) }), 409, 'conflict');
  });
});

test.describe('refused urls (default rules)', () => {
  let strict: SiloServer;
  test.beforeAll(async ({ database }) => {
    strict = await startServer({ database });
  });
  test.afterAll(() => strict?.stop());

  test('http:// and loopback, private, link-local and metadata hosts are 422', async ({ playwright }) => {
    // an owner of the strict server, made with its own admin key
    const admin = await playwright.request.newContext({ baseURL: strict.url, extraHTTPHeaders: bearer(strict.adminKey) });
    const made = await (await admin.post('/admin/v1/owners', { data: { name: 'Strict' } })).json();
    const key = made.api_keys.find((k: { sandbox: boolean }) => !k.sandbox).key;
    const api = await playwright.request.newContext({ baseURL: strict.url });
    for (const url of [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'https://[fd00::1]/hook',
      'https://0.0.0.0/hook',
    ]) {
      const body = await expectError(await api.post('/silo/v1/webhooks', { headers: bearer(key), data: { url } }), 422, 'validation');
      expect(body.fields, url).toHaveProperty('url');
    }
    expect((await (await api.get('/silo/v1/webhooks', { headers: bearer(key) })).json()).list).toEqual([]);
    await admin.dispose();
    await api.dispose();
  });
});
