// GET /utils/v1/metrics over HTTP, read by a real parser of Prometheus' text format
// (lib/testing/scraped.ts): the request counters move by exactly what the test did, each under its
// route's pattern; a random path or method makes no new label; the stored versions and bytes of an
// inline file, a replacement, a restore and a placeholder's upload; the webhook backlog and the
// records since the last checkpoint; and who may read it, with and without METRICS_TOKEN.
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, test, WEBHOOKS_TO_LOOPBACK } from '../fixtures';
import { freePort, startServer } from '../fixtures/server';
import { scraped, type Scraped } from '../../lib/testing/scraped';
import { deriveRoutes } from '../../scripts/route-table.mjs';
import { b64, createEntry, expectError, sha256 } from './helpers';

const TOKEN = `metrics-${randomUUID()}`;
const ROOT = path.resolve(__dirname, '..', '..');
const FILES = '/silo/v1/entries/[entry_id]/files';

async function scrape(request: APIRequestContext, auth: string): Promise<Scraped> {
  const res = await request.get('/utils/v1/metrics', { headers: { Authorization: `Bearer ${auth}` } });
  expect(res.status(), await res.text()).toBe(200);
  expect(res.headers()['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return scraped(await res.text());
}

/** What moved between two scrapes: a counter's sample whose labels include `labels`. */
const moved = (a: Scraped, b: Scraped, name: string, labels: Record<string, string> = {}) => b.value(name, labels) - a.value(name, labels);

/** The records of the key's chain, by the events API (fewer than a page). */
async function records(request: APIRequestContext, key: string): Promise<number> {
  const page = await (await request.get('/silo/v1/events?limit=100', { headers: bearer(key) })).json();
  expect(page.next_cursor).toBeFalsy();
  return page.list.length;
}

// The file's server: checkpoints only after the tests (the first round is an interval after the
// start), webhooks to loopback.
test.use({ serverEnv: { METRICS_TOKEN: TOKEN, AUDIT_CHECKPOINT_SECONDS: '3600', ...WEBHOOKS_TO_LOOPBACK } });

test.describe('with METRICS_TOKEN', () => {
  test('only the token reads them: 401 without credentials, 403 with the admin key or another', async ({ request, server }) => {
    await expectError(await request.get('/utils/v1/metrics'), 401, 'unauthorized');
    await expectError(
      await request.get('/utils/v1/metrics', { headers: { Authorization: `Bearer ${server.adminKey}` } }),
      403,
      'forbidden',
    );
    await expectError(await request.get('/utils/v1/metrics', { headers: { Authorization: `Bearer ${TOKEN}x` } }), 403, 'forbidden');
    await scrape(request, TOKEN);
  });

  test('count requests under their route patterns, and what was stored', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const before = await scrape(request, TOKEN);
    for (let i = 0; i < 3; i++) expect((await request.get('/utils/v1/ping')).status()).toBe(200);
    const entry = await createEntry(request, liveKey, { name: 'counted' });
    const post = (data: Record<string, unknown>) => request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data });
    const v1 = '<Invoice>v1</Invoice>';
    const v2 = '<Invoice>version 2</Invoice>';
    const first = await (await post({ name: 'i.xml', mime: 'application/xml', data: b64(v1) })).json();
    expect((await post({ name: 'i.xml', mime: 'application/xml', data: b64(v2) })).status()).toBe(201);
    const restored = await request.post(`/silo/v1/entries/${entry.id}/files/${first.id}/restore`, { headers: bearer(liveKey) });
    expect(restored.status()).toBe(201);
    const big = randomBytes(200_000);
    const placeholder = await post({ name: 'big.bin', mime: 'application/octet-stream', sha256: sha256(big), size: big.length });
    expect(placeholder.status()).toBe(201);
    const p = await placeholder.json();
    expect((await request.put(p.url, { headers: { 'Content-Type': 'application/octet-stream' }, data: big })).status()).toBe(200);
    const got = await request.get(`/silo/v1/entries/${entry.id}/files/${first.id}`, { headers: bearer(liveKey) });
    expect(await got.text()).toBe(v1);
    // No route serves these: they count, under fixed labels only.
    const stray = `/no-such-${randomUUID()}`;
    expect((await request.get(stray)).status()).toBe(404);
    expect((await request.get(`/silo/v1/${randomUUID()}`)).status()).toBe(404);
    expect((await request.fetch('/utils/v1/ping', { method: 'PROPFIND' })).status()).toBe(405);
    expect((await request.fetch('/utils/v1/ping', { method: 'OPTIONS' })).status()).toBe(204);
    const after = await scrape(request, TOKEN);

    const http = (method: string, route: string, status: number) =>
      moved(before, after, 'silo_http_requests_total', { method, route, status: String(status) });
    expect(http('GET', '/utils/v1/ping', 200)).toBe(3);
    expect(http('POST', '/silo/v1/entries', 201)).toBe(1);
    expect(http('POST', FILES, 201)).toBe(3);
    expect(http('POST', `${FILES}/[id]/restore`, 201)).toBe(1);
    expect(http('PUT', '/silo/v1/files/[id]', 200)).toBe(1);
    expect(http('GET', `${FILES}/[id]`, 200)).toBe(1);
    expect(http('OTHER', '/utils/v1/ping', 405)).toBe(1);
    expect(http('OPTIONS', '/utils/v1/ping', 204)).toBe(1);
    expect(moved(before, after, 'silo_http_requests_total', { route: 'unmatched', status: '404' })).toBe(2);
    // Every route label is a pattern of the route table, or `unmatched`; no path, id or method of the caller's.
    const patterns = new Set((await deriveRoutes(ROOT)).map((r: { pattern: string }) => r.pattern));
    for (const route of after.labelValues('silo_http_requests_total', 'route'))
      expect(route === 'unmatched' || patterns.has(route), route).toBe(true);
    expect(after.labelValues('silo_http_requests_total', 'method')).not.toContain('PROPFIND');
    expect(after.families.get('silo_http_request_duration_seconds')?.type).toBe('HISTOGRAM');

    // The inline version, its replacement, the restore (v1's bytes again) and the upload.
    expect(moved(before, after, 'silo_stored_versions_total')).toBe(4);
    expect(moved(before, after, 'silo_stored_bytes_total')).toBe(2 * v1.length + v2.length + big.length);
    expect(after.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(after.families.get('nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');
    expect(after.value('silo_db_pool_waiting')).toBe(0);
  });

  test('show a pending webhook delivery and the records no checkpoint covers yet', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const before = await scrape(request, TOKEN);
    const made = await records(request, liveKey);
    // An endpoint nothing listens on: each attempt is refused, the delivery stays pending.
    const url = `http://127.0.0.1:${await freePort()}/hook`;
    const hook = await request.post('/silo/v1/webhooks', { headers: bearer(liveKey), data: { url, types: ['entry.created'] } });
    expect(hook.status(), await hook.text()).toBe(201);
    await createEntry(request, liveKey, { name: 'announced' });
    await expect
      .poll(async () => (await scrape(request, TOKEN)).value('silo_webhook_deliveries_pending'), { timeout: 30_000 })
      .toBe(before.value('silo_webhook_deliveries_pending') + 1);
    await expect.poll(async () => (await scrape(request, TOKEN)).value('silo_webhook_oldest_pending_seconds')).toBeGreaterThan(0);
    const after = await scrape(request, TOKEN);
    const added = (await records(request, liveKey)) - made;
    expect(added).toBeGreaterThanOrEqual(2); // the webhook's and the entry's, at least
    expect(moved(before, after, 'silo_event_records_since_checkpoint')).toBe(added);
  });
});

test.describe('without METRICS_TOKEN', () => {
  test('the admin key reads them; a workspace key is 403, no credentials 401', async ({ playwright, database, newOwner }) => {
    const { liveKey } = await newOwner(); // a key of the file's server: unknown to this one, 403 all the same
    const plain = await startServer({ database });
    const request = await playwright.request.newContext({ baseURL: plain.url });
    try {
      await expectError(await request.get('/utils/v1/metrics'), 401, 'unauthorized');
      await expectError(await request.get('/utils/v1/metrics', { headers: bearer(liveKey) }), 403, 'forbidden');
      await expectError(await request.get('/utils/v1/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } }), 403, 'forbidden');
      const read = await scrape(request, plain.adminKey);
      expect(read.families.get('silo_http_requests_total')?.type).toBe('COUNTER');
      expect(read.value('silo_http_requests_total', { route: '/utils/v1/metrics', status: '401' })).toBe(1);
    } finally {
      await request.dispose();
      await plain.stop();
    }
  });
});
