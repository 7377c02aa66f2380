// Auditors' keys over HTTP (docs/api.md, Auditor keys): made by a workspace key for one environment
// and period, shown once, listed without secrets; the key reads entries, files, events and the
// export of versions stored in [from, to), clamped to it, and nothing else: every write on every
// route answers 403 read_only_key (and changes nothing), a read outside the period 403
// outside_period; expired or revoked it is 401; its creation, each use and its revocation are records.
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { deriveRoutes } from '../../scripts/route-table.mjs';
import { bearer, expect, test } from '../fixtures';
import { randomUUID } from 'node:crypto';
import { b64, createEntry, expectError, inlineFile, signIn } from './helpers';

const ROOT = path.resolve(__dirname, '../..');
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const today = day(0);
const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];

async function auditorKey(request: APIRequestContext, key: string, body: Record<string, unknown> = {}) {
  const res = await request.post('/silo/v1/auditor-keys', {
    headers: bearer(key),
    data: { from: today, to: day(1), expires_in: 3600, note: 'Audit', ...body },
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

const eventsOf = async (request: APIRequestContext, key: string, query = '') =>
  (await (await request.get(`/silo/v1/events?limit=100${query}`, { headers: bearer(key) })).json()).list as {
    type: string;
    actor: { type: string; id: string };
    data: Record<string, unknown>;
  }[];

/** A workspace with one entry holding an xml version (replaced once) and a private pdf. */
async function audited(request: APIRequestContext, newOwner: (n?: string) => Promise<{ id: string; liveKey: string; sandboxKey: string }>) {
  const owner = await newOwner('Audited AG');
  const entry = await createEntry(request, owner.liveKey, { key: 'INV-1', name: 'Invoice 1' });
  await inlineFile(request, owner.liveKey, entry.id, { name: 'inv.xml', category: 'format', key: 'xml', data: b64('<v1/>') });
  const xml = await inlineFile(request, owner.liveKey, entry.id, { name: 'inv.xml', category: 'format', key: 'xml', data: b64('<v2/>') });
  const pdf = await inlineFile(request, owner.liveKey, entry.id, {
    name: 'inv.pdf',
    mime: 'application/pdf',
    data: b64('%PDF-1'),
    private: true,
  });
  return { owner, entry, xml, pdf };
}

test('a workspace key makes one, shown once; lists show no secret; bad bodies are 422 naming the field', async ({
  request,
  newOwner,
  server,
}) => {
  const owner = await newOwner();
  const made = await auditorKey(request, owner.liveKey, { note: 'Betriebsprüfung 2026' });
  expect(made).toMatchObject({ from: today, to: day(1), note: 'Betriebsprüfung 2026', sandbox: false, revoked_at: null });
  expect(made.key).toMatch(/^silo_audit_/);
  const list = await (await request.get('/silo/v1/auditor-keys', { headers: bearer(owner.liveKey) })).json();
  expect(list.list).toEqual([Object.fromEntries(Object.entries(made).filter(([k]) => k !== 'key'))]);
  expect(JSON.stringify(list)).not.toContain(made.key);
  // the sandbox has its own
  expect((await (await request.get('/silo/v1/auditor-keys', { headers: bearer(owner.sandboxKey) })).json()).list).toEqual([]);

  const field = async (body: Record<string, unknown>, name: string) => {
    const res = await request.post('/silo/v1/auditor-keys', {
      headers: bearer(owner.liveKey),
      data: { from: today, to: day(1), expires_in: 60, ...body },
    });
    return (await expectError(res, 422, 'validation')).fields?.[name];
  };
  expect(await field({ to: today }, 'to')).toMatch(/after from/);
  expect(await field({ from: '2026-02-30' }, 'from')).toMatch(/real date/);
  expect(await field({ expires_in: 0 }, 'expires_in')).toBeTruthy();
  expect(await field({ expires_in: 366 * 86_400 + 1 }, 'expires_in')).toMatch(/366 days/);
  expect(await field({ note: 'x'.repeat(1025) }, 'note')).toMatch(/1024/);
  // the admin key, and an auditor's key itself, make none
  await expectError(
    await request.post('/silo/v1/auditor-keys', { headers: bearer(server.adminKey), data: { from: today, to: day(1), expires_in: 60 } }),
    403,
  );
  await expectError(await request.get('/silo/v1/auditor-keys', { headers: bearer(made.key) }), 403, 'forbidden');
});

test('a console member makes one for an environment it names; an enrollment token makes none', async ({
  admin,
  playwright,
  server,
  request,
  newOwner,
}) => {
  const owner = await newOwner();
  const stranger = await newOwner();
  const email = `a-${randomUUID().slice(0, 8)}@example.com`;
  const user = await admin.post('/admin/v1/users', {
    data: { email, name: 'A', password: 'correct horse battery', owner_ids: [owner.id] },
  });
  expect(user.status(), await user.text()).toBe(201);
  const ctx = await signIn(playwright, server.url, email, 'correct horse battery');
  const body = { from: today, to: day(1), expires_in: 600, note: 'from the console' };
  const made = await ctx.post('/silo/v1/auditor-keys', {
    headers: { 'X-Silo-Owner': owner.id, 'X-Silo-Sandbox': 'true', Origin: server.url },
    data: body,
  });
  expect(made.status(), await made.text()).toBe(201);
  const key = await made.json();
  expect(key.sandbox).toBe(true);
  // it is the sandbox's: listed there, and it reads the sandbox
  expect(
    (await (await request.get('/silo/v1/auditor-keys', { headers: bearer(owner.sandboxKey) })).json()).list.map(
      (k: { id: string }) => k.id,
    ),
  ).toEqual([key.id]);
  expect((await request.get('/silo/v1/auditor-keys', { headers: bearer(owner.liveKey) }).then((r) => r.json())).list).toEqual([]);
  const sandboxEntry = await createEntry(request, owner.sandboxKey, { key: 'S-1' });
  await inlineFile(request, owner.sandboxKey, sandboxEntry.id, { name: 's.xml', data: b64('<s/>') });
  expect(
    (await (await request.get('/silo/v1/entries', { headers: bearer(key.key) })).json()).list.map((e: { id: string }) => e.id),
  ).toEqual([sandboxEntry.id]);
  // another workspace: not the member's
  const refused = await ctx.post('/silo/v1/auditor-keys', { headers: { 'X-Silo-Owner': stranger.id, Origin: server.url }, data: body });
  expect(refused.status()).toBe(404);
  await ctx.dispose();

  const app = await (await admin.post('/admin/v1/apps', { data: { name: 'Invoicer' } })).json();
  const auth = await request.post('/access/v1/enrollment/authorize', {
    headers: { 'X-Owner-Key': owner.liveKey },
    data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
  });
  const { token } = await auth.json();
  await expectError(await request.post('/silo/v1/auditor-keys', { headers: bearer(token), data: body }), 403, 'forbidden');
  await expectError(await request.get('/silo/v1/auditor-keys', { headers: bearer(token) }), 403, 'forbidden');
  // an auditor's key as the owner key of an authorization is no owner key either
  const auditor = await auditorKey(request, owner.liveKey);
  const viaHeader = await request.post('/access/v1/enrollment/authorize', {
    headers: { 'X-Owner-Key': auditor.key },
    data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id, sandbox: true },
  });
  await expectError(viaHeader, 403);
});

test('every write on every route answers 403 read_only_key and changes nothing', async ({ request, newOwner }) => {
  const { owner, entry, xml } = await audited(request, newOwner);
  const made = await auditorKey(request, owner.liveKey);
  const before = (await eventsOf(request, owner.liveKey)).length;
  const routes = await deriveRoutes(ROOT);
  let writes = 0;
  for (const r of routes) {
    if (r.pattern.startsWith('/api/auth/')) continue; // next-auth's own sign-in, not the API
    const url = r.pattern
      .replace('[entry_id]', entry.id)
      .replace(/\[id\]/, r.pattern.includes('auditor-keys') ? made.id : xml.id)
      .replace(/\[[^\]]+\]/g, owner.id);
    for (const method of WRITES.filter((m) => r.methods.includes(m))) {
      const res = await request.fetch(url, { method, headers: { ...bearer(made.key), 'Content-Type': 'application/json' }, data: '{}' });
      expect(`${method} ${url} ${res.status()}`).toBe(`${method} ${url} 403`);
      await expectError(res, 403, 'read_only_key');
      writes++;
    }
  }
  expect(writes).toBeGreaterThan(20);
  // the signed url and a link are no way around it
  for (const url of [xml.url, `${xml.url}`.replace(/sig=[^&]*/, 'expires=9999999999&link=x')])
    await expectError(await request.put(url, { headers: bearer(made.key), data: '<v3/>' }), 403, 'read_only_key');
  // nothing changed: the only records are the key's uses, one per request
  const after = await eventsOf(request, owner.liveKey, `&after=0`);
  const added = after.slice(before);
  expect(new Set(added.map((e) => e.type))).toEqual(new Set(['auditor_key.used']));
  expect(added).toHaveLength(writes + 2);
  expect(added[0].data).toMatchObject({ key_id: made.id, method: expect.any(String), path: expect.stringMatching(/^\//) });
  expect((await (await request.get(`/silo/v1/entries/${entry.id}`, { headers: bearer(owner.liveKey) })).json()).attachments).toHaveLength(
    2,
  );
  expect(
    (await request.get(`/silo/v1/auditor-keys`, { headers: bearer(owner.liveKey) }).then((r) => r.json())).list[0].revoked_at,
  ).toBeNull();
});

test('reads what was stored in its period, 403 outside it; lists show only the period', async ({ request, newOwner }) => {
  const { owner, entry, xml, pdf } = await audited(request, newOwner);
  const other = await createEntry(request, owner.sandboxKey, { key: 'SANDBOX' });
  const now = await auditorKey(request, owner.liveKey);
  const past = await auditorKey(request, owner.liveKey, { from: '2025-01-01', to: '2026-01-01' });
  const get = (key: string, url: string) => request.get(url, { headers: bearer(key) });

  // in the period: entries, an entry, its files, the bytes (private too, also through the url), events
  const list = await (await get(now.key, '/silo/v1/entries')).json();
  expect(list.list.map((e: { id: string; file_count: number }) => [e.id, e.file_count])).toEqual([[entry.id, 2]]);
  const one = await (await get(now.key, `/silo/v1/entries/${entry.id}`)).json();
  expect(one.attachments.map((f: { id: string }) => f.id).sort()).toEqual([xml.id, pdf.id].sort());
  expect((await (await get(now.key, `/silo/v1/entries/${entry.id}/files`)).json()).list).toHaveLength(2);
  const bytes = await get(now.key, `/silo/v1/entries/${entry.id}/files/${pdf.id}`);
  expect([bytes.status(), (await bytes.body()).toString()]).toEqual([200, '%PDF-1']);
  expect((await get(now.key, pdf.url)).status()).toBe(200);
  expect((await request.head(`/silo/v1/entries/${entry.id}/files/${xml.id}`, { headers: bearer(now.key) })).status()).toBe(200);
  const events = await eventsOf(request, now.key);
  expect(events.map((e) => e.type)).toContain('file.stored');
  // another environment's entry is not there
  await expectError(await get(now.key, `/silo/v1/entries/${other.id}`), 404, 'not_found');

  // outside the period: empty lists, 403 on the entry, a version, its url; the export too
  expect((await (await get(past.key, '/silo/v1/entries')).json()).list).toEqual([]);
  await expectError(await get(past.key, `/silo/v1/entries/${entry.id}`), 403, 'outside_period');
  await expectError(await get(past.key, `/silo/v1/entries/${entry.id}/files`), 403, 'outside_period');
  await expectError(await get(past.key, `/silo/v1/entries/${entry.id}/files/${xml.id}`), 403, 'outside_period');
  await expectError(await get(past.key, pdf.url), 403, 'outside_period');
  expect((await eventsOf(request, past.key)).filter((e) => e.type !== 'auditor_key.used')).toEqual([]);
  await expectError(await get(past.key, `/silo/v1/export?from=${today}&to=${today}`), 403, 'outside_period');

  // a link and a placeholder's url: with the key, its reads too (a link alone still opens)
  const link = await (
    await request.post(`/silo/v1/entries/${entry.id}/files/${xml.id}/links`, { headers: bearer(owner.liveKey), data: { expires_in: 600 } })
  ).json();
  expect((await get(now.key, link.url)).status()).toBe(200);
  await expectError(await get(past.key, link.url), 403, 'outside_period');
  expect((await request.get(link.url)).status()).toBe(200);
  const placeholder = await inlineFile(request, owner.liveKey, entry.id, {
    name: 'later.bin',
    mime: 'application/octet-stream',
    sha256: 'a'.repeat(64),
    size: 3,
  });
  expect((await request.head(placeholder.url, { headers: bearer(now.key) })).status()).toBe(403);
  expect((await request.head(placeholder.url)).status()).toBe(204);

  // and nothing else: folders, verify, the keys themselves
  for (const url of ['/silo/v1/folders', '/silo/v1/events/verify', '/silo/v1/auditor-keys', '/admin/v1/owners'])
    await expectError(await get(now.key, url), 403);
});

test('the export is clamped to the period and recorded as the key', async ({ request, newOwner }) => {
  const { owner } = await audited(request, newOwner);
  const made = await auditorKey(request, owner.liveKey);
  const res = await request.get(`/silo/v1/export?from=${day(-30)}&to=${day(30)}`, { headers: bearer(made.key) });
  expect(res.status(), await res.text()).toBe(200);
  expect(res.headers()['content-disposition']).toBe(`attachment; filename="silo-export-${owner.id}-live-${today}-${today}.zip"`);
  const head = await request.head(`/silo/v1/export?from=${day(-30)}&to=${day(30)}`, { headers: bearer(made.key) });
  expect(head.headers()['content-disposition']).toContain(`-${today}-${today}.zip`);
  const [record] = await eventsOf(request, owner.liveKey, '&type=export.created');
  expect(record.actor).toMatchObject({ type: 'auditor_key', id: made.id });
  expect(record.data).toMatchObject({ from: today, to: today, versions: 3 });
});

test('expired or revoked it is 401; creation, use and revocation are records', async ({ request, newOwner }) => {
  const owner = await newOwner();
  const short = await auditorKey(request, owner.liveKey, { expires_in: 1 });
  const made = await auditorKey(request, owner.liveKey, { note: 'to revoke' });
  expect((await request.get('/silo/v1/entries', { headers: bearer(made.key) })).status()).toBe(200);
  // Until its expiry has passed on the clock the server reads too (the same host's); a poll with
  // the key itself would record its uses.
  await expect.poll(() => Date.now(), { intervals: [20] }).toBeGreaterThanOrEqual(Date.parse(short.expires_at));
  await expectError(await request.get('/silo/v1/entries', { headers: bearer(short.key) }), 401, 'unauthorized');

  const revoke = await request.delete(`/silo/v1/auditor-keys/${made.id}`, { headers: bearer(owner.liveKey) });
  expect(revoke.status()).toBe(204);
  await expectError(await request.get('/silo/v1/entries', { headers: bearer(made.key) }), 401, 'unauthorized');
  await expectError(await request.delete(`/silo/v1/auditor-keys/${made.id}`, { headers: bearer(owner.liveKey) }), 404, 'not_found');
  await expectError(await request.delete(`/silo/v1/auditor-keys/${short.id}`, { headers: bearer(owner.sandboxKey) }), 404, 'not_found');

  const records = (await eventsOf(request, owner.liveKey)).filter((e) => e.type.startsWith('auditor_key.'));
  expect(records.map((e) => [e.type, e.actor.type, e.data.key_id])).toEqual([
    ['auditor_key.created', 'owner_key', short.id],
    ['auditor_key.created', 'owner_key', made.id],
    ['auditor_key.used', 'auditor_key', made.id],
    ['auditor_key.revoked', 'owner_key', made.id],
  ]);
  expect(records[2].data).toEqual({ key_id: made.id, method: 'GET', path: '/silo/v1/entries' });
  const listed = (await (await request.get('/silo/v1/auditor-keys', { headers: bearer(owner.liveKey) })).json()).list;
  expect(listed.map((k: { id: string; revoked_at: string | null }) => [k.id, k.revoked_at !== null])).toEqual([
    [made.id, true],
    [short.id, false],
  ]);
});
