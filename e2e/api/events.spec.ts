// The event log over HTTP (docs/api.md, Events): every change of a workspace's entries, files,
// links, keys and enrollments writes one record in its environment's chain; each record's hash is
// the SHA-256 of its RFC 8785 JSON without `hash`, chained by prev_hash; verify recomputes it;
// sandbox and live keys see their own chain only; the audit key is public.
import { createHash, createPublicKey, verify } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { canonicalJson, type Json } from '../../lib/events/canonical-json';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, inlineFile, sha256 } from './helpers';

interface EventRecord {
  id: string;
  seq: number;
  type: string;
  sandbox: boolean;
  actor: { type: string; id: string | null; name: string };
  entry_id: string | null;
  file_id: string | null;
  version: number | null;
  data: Record<string, unknown>;
  request_id: string | null;
  prev_hash: string;
  hash: string;
}

/** Every record of the caller's chain, read a page at a time. */
async function allEvents(request: APIRequestContext, key: string, query = ''): Promise<EventRecord[]> {
  const out: EventRecord[] = [];
  let after = 0;
  for (;;) {
    const res = await request.get(`/silo/v1/events?limit=3&after=${after}${query}`, { headers: bearer(key) });
    expect(res.status(), await res.text()).toBe(200);
    const page = await res.json();
    out.push(...page.list);
    if (!page.next_cursor) return out;
    after = Number(page.next_cursor);
  }
}

/** Every record newest first, a page at a time: `?order=desc`, each next page `?before=` (or `?cursor=`) the last seq. */
async function allEventsNewestFirst(request: APIRequestContext, key: string, query = '', by: 'before' | 'cursor' = 'before') {
  const out: EventRecord[] = [];
  let before: string | undefined;
  for (;;) {
    const res = await request.get(`/silo/v1/events?order=desc&limit=3${before ? `&${by}=${before}` : ''}${query}`, {
      headers: bearer(key),
    });
    expect(res.status(), await res.text()).toBe(200);
    const page = await res.json();
    expect(page.cursor).toBe(before);
    out.push(...page.list);
    if (!page.next_cursor) return out;
    expect(page.next_cursor).toBe(String(page.list.at(-1).seq));
    before = page.next_cursor;
  }
}

/** What a client checks with a few lines: seq without gaps, prev_hash links, hash of the record without it. */
function checkChain(records: EventRecord[]) {
  let prev = '0'.repeat(64);
  records.forEach((r, i) => {
    expect(r.seq).toBe(i + 1);
    expect(r.prev_hash).toBe(prev);
    const { hash, ...rest } = r;
    expect(
      createHash('sha256')
        .update(canonicalJson(rest as unknown as Json))
        .digest('hex'),
    ).toBe(hash);
    prev = hash;
  });
}

test('every change writes one record in order, chained and verifiable by any client', async ({ request, newOwner, admin }) => {
  const owner = await newOwner('Audited');
  const key = owner.liveKey;
  const entry = await createEntry(request, key, { name: 'Invoice 1', folder: 'sales/2026', key: 'INV-1', meta: { customer: 'ÄCME 😀' } });
  const v1 = await inlineFile(request, key, entry.id, {
    name: 'inv.xml',
    category: 'format',
    key: 'xml',
    mime: 'application/xml',
    data: b64('<Invoice/>'),
  });
  const v2 = await inlineFile(request, key, entry.id, {
    name: 'inv.xml',
    category: 'format',
    key: 'xml',
    mime: 'application/xml',
    data: b64('<Invoice>2</Invoice>'),
  });
  const placeholder = await request.post(`/silo/v1/entries/${entry.id}/files`, {
    headers: bearer(key),
    data: { name: 'scan.pdf', mime: 'application/pdf', sha256: sha256('%PDF-1.7'), size: 8 },
  });
  expect(placeholder.status()).toBe(201);
  const p = await placeholder.json();
  expect((await request.put(p.url, { data: Buffer.from('%PDF-1.7'), headers: { 'Content-Type': 'application/pdf' } })).status()).toBe(200);
  expect((await request.patch(`/silo/v1/entries/${entry.id}`, { headers: bearer(key), data: { folder: 'sales/2026/11' } })).status()).toBe(
    200,
  );
  expect((await request.patch(`/silo/v1/entries/${entry.id}`, { headers: bearer(key), data: { folder: 'sales/2026/11' } })).status()).toBe(
    200,
  ); // no change
  expect(
    (await request.patch(`/silo/v1/entries/${entry.id}/files/${v2.id}`, { headers: bearer(key), data: { desc: 'corrected' } })).status(),
  ).toBe(200);
  expect(
    (await request.post(`/silo/v1/entries/${entry.id}/files/${v2.id}/links`, { headers: bearer(key), data: { expires_in: 60 } })).status(),
  ).toBe(201);
  expect((await request.delete(`/silo/v1/entries/${entry.id}/files/${v2.id}/links`, { headers: bearer(key) })).status()).toBe(204);
  expect((await request.post(`/silo/v1/entries/${entry.id}/files/${v1.id}/restore`, { headers: bearer(key) })).status()).toBe(201);
  expect((await request.delete(`/silo/v1/entries/${entry.id}/files/${v1.id}`, { headers: bearer(key) })).status()).toBe(204);
  expect((await admin.patch(`/admin/v1/owners/${owner.id}`, { data: { name: 'Audited GmbH' } })).status()).toBe(200);
  const requestId = 'req-delete-entry-1';
  expect((await request.delete(`/silo/v1/entries/${entry.id}`, { headers: { ...bearer(key), 'X-Request-Id': requestId } })).status()).toBe(
    204,
  );

  const records = await allEvents(request, key);
  expect(records.map((r) => r.type)).toEqual([
    'key.created',
    'entry.created',
    'file.created',
    'file.stored',
    'file.created',
    'file.stored',
    'file.created', // the placeholder
    'file.stored', // its upload
    'entry.updated',
    'file.updated',
    'link.created',
    'link.revoked',
    'file.restored',
    'file.deleted',
    'workspace.renamed',
    'entry.deleted',
  ]);
  checkChain(records);
  const by = (type: string) => records.filter((r) => r.type === type);
  expect(by('entry.created')[0]).toMatchObject({
    entry_id: entry.id,
    actor: { type: 'owner_key' },
    data: { key: 'INV-1', meta: { customer: 'ÄCME 😀' } },
  });
  expect(by('file.stored')[1]).toMatchObject({
    file_id: v2.id,
    version: 2,
    data: { name: 'inv.xml', sha256: sha256('<Invoice>2</Invoice>'), size: 20 },
  });
  expect(by('file.created')[2]).toMatchObject({ file_id: p.id, data: { placeholder: true, size: 8 } });
  expect(by('entry.updated')[0].data).toEqual({ before: { folder: 'sales/2026' }, after: { folder: 'sales/2026/11' } });
  expect(by('file.updated')[0].data).toEqual({ before: { desc: '' }, after: { desc: 'corrected' } });
  expect(by('file.restored')[0]).toMatchObject({ version: 3, data: { from: { id: v1.id, version: 1 } } });
  expect(by('workspace.renamed')[0]).toMatchObject({
    actor: { type: 'admin_key' },
    data: { before: { name: 'Audited' }, after: { name: 'Audited GmbH' } },
  });
  const deleted = by('entry.deleted')[0];
  expect(deleted).toMatchObject({ request_id: requestId, data: { key: 'INV-1' } });
  expect((deleted.data.files as unknown[]).length).toBe(3); // v2, the restored v3 and the placeholder's version

  // Filters, and the verdict
  expect((await allEvents(request, key, `&type=file.stored`)).map((r) => r.seq)).toEqual(by('file.stored').map((r) => r.seq));
  expect((await allEvents(request, key, `&entry_id=${entry.id}`)).length).toBe(records.length - 2); // not key.created nor the rename
  const verdict = await (await request.get('/silo/v1/events/verify', { headers: bearer(key) })).json();
  expect(verdict).toMatchObject({ ok: true, checked: records.length, head: { seq: records.length, hash: records.at(-1)?.hash } });

  // The sandbox chain is another: its key sees only its own records
  const sandbox = await allEvents(request, owner.sandboxKey);
  expect(sandbox.map((r) => r.type)).toEqual(['key.created', 'workspace.renamed']);
  expect(sandbox.every((r) => r.sandbox)).toBe(true);
  checkChain(sandbox);
});

test('keys and enrollments are on the record, with who did it', async ({ request, newOwner, admin }) => {
  const owner = await newOwner('Keys');
  const made = await (await admin.post(`/admin/v1/owners/${owner.id}/keys`, { data: { sandbox: false } })).json();
  expect((await admin.delete(`/admin/v1/owners/${owner.id}/keys/${made.id}`)).status()).toBe(204);
  const app = await (await admin.post('/admin/v1/apps', { data: { name: 'Invoicer', trusted: false } })).json();
  const enrolled = await admin.post('/admin/v1/enrollments', { data: { app_id: app.id, owner_id: owner.id } });
  expect(enrolled.status()).toBe(201);
  const enrollment = await enrolled.json();
  const auth = await request.post('/access/v1/enrollment/authorize', {
    data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
  });
  expect(auth.status(), await auth.text()).toBe(200);
  expect((await admin.patch(`/admin/v1/enrollments/${enrollment.id}`, { data: { disabled: true } })).status()).toBe(200);
  expect((await admin.patch(`/admin/v1/enrollments/${enrollment.id}`, { data: { disabled: true } })).status()).toBe(200); // no change
  expect((await admin.patch(`/admin/v1/enrollments/${enrollment.id}`, { data: { disabled: false } })).status()).toBe(200);

  const records = await allEvents(request, owner.liveKey);
  expect(records.map((r) => r.type)).toEqual([
    'key.created',
    'key.created',
    'key.revoked',
    'enrollment.created',
    'enrollment.authorized',
    'enrollment.disabled',
    'enrollment.enabled',
  ]);
  checkChain(records);
  expect(records[2]).toMatchObject({ actor: { type: 'admin_key' }, data: { key_id: made.id } });
  expect(records[4]).toMatchObject({ actor: { type: 'app', id: app.id, name: 'Invoicer' }, data: { enrollment_id: enrollment.id } });
});

test('the audit key is public, and the list refuses what it cannot read', async ({ request, newOwner, playwright }) => {
  const anon = await playwright.request.newContext();
  const res = await anon.get('/utils/v1/audit-key');
  expect(res.status()).toBe(200);
  const key = await res.json();
  expect(key).toMatchObject({ alg: 'Ed25519', key_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
  const pub = createPublicKey(key.public_key);
  expect(
    createHash('sha256')
      .update(pub.export({ type: 'spki', format: 'der' }))
      .digest('hex')
      .slice(0, 16),
  ).toBe(key.key_id);
  expect(verify(null, Buffer.from('x'), pub, Buffer.alloc(64))).toBe(false);
  await expectError(await anon.get('/silo/v1/events'), 401, 'unauthorized');
  const owner = await newOwner();
  await expectError(await request.get('/silo/v1/events?type=nope', { headers: bearer(owner.liveKey) }), 422, 'validation');
  await expectError(await request.get('/silo/v1/events?after=-1', { headers: bearer(owner.liveKey) }), 422, 'validation');
  await anon.dispose();
});

test('newest first: ?order=desc pages by ?before= over the chain exactly once, filters included', async ({ request, newOwner }) => {
  const owner = await newOwner('Newest first');
  const key = owner.liveKey;
  const a = await createEntry(request, key, { name: 'A' });
  const b = await createEntry(request, key, { name: 'B' });
  for (let i = 1; i <= 4; i++) {
    for (const e of [a, b])
      await inlineFile(request, key, e.id, {
        name: `f${i}.txt`,
        category: 'attachment',
        key: 'f',
        mime: 'text/plain',
        data: b64(`${e.name} ${i}`),
      });
    expect((await request.patch(`/silo/v1/entries/${a.id}`, { headers: bearer(key), data: { folder: `f${i}` } })).status()).toBe(200);
  }
  const oldestFirst = await allEvents(request, key);
  expect(oldestFirst.length).toBe(1 + 2 + 4 * 5); // key.created, two entries, per round two files (created + stored) and an edit
  checkChain(oldestFirst);
  const seqs = (list: EventRecord[]) => list.map((r) => r.seq);
  const newest = [...oldestFirst].reverse();
  expect(seqs(await allEventsNewestFirst(request, key))).toEqual(seqs(newest));
  expect(seqs(await allEventsNewestFirst(request, key, '', 'cursor'))).toEqual(seqs(newest));
  expect(await allEventsNewestFirst(request, key)).toEqual(newest); // the same records, field for field

  const cases: [string, (r: EventRecord) => boolean][] = [
    ['&type=file.stored', (r) => r.type === 'file.stored'],
    [`&entry_id=${a.id}`, (r) => r.entry_id === a.id],
    [`&entry_id=${b.id}&type=file.created`, (r) => r.entry_id === b.id && r.type === 'file.created'],
    ['&type=entry.updated', (r) => r.type === 'entry.updated'],
  ];
  for (const [query, keep] of cases) {
    const expected = seqs(newest.filter(keep));
    expect(expected.length, query).toBeGreaterThan(3); // more than one page
    expect(seqs(await allEventsNewestFirst(request, key, query)), query).toEqual(expected);
    expect(seqs(await allEvents(request, key, query)), query).toEqual([...expected].reverse());
  }

  // after and before bound the range in either order
  const window = async (q: string) =>
    seqs((await (await request.get(`/silo/v1/events?limit=100&after=10&before=15${q}`, { headers: bearer(key) })).json()).list);
  expect(await window('')).toEqual([11, 12, 13, 14]);
  expect(await window('&order=desc')).toEqual([14, 13, 12, 11]);
  const last = await (await request.get('/silo/v1/events?order=desc&limit=1', { headers: bearer(key) })).json();
  expect(last).toMatchObject({ list: [{ seq: oldestFirst.length }], next_cursor: String(oldestFirst.length) });
  expect(last.cursor).toBeUndefined();
  const end = await (await request.get('/silo/v1/events?order=desc&before=1', { headers: bearer(key) })).json();
  expect(end.list).toEqual([]);
  expect(end.next_cursor).toBeUndefined();

  for (const bad of ['order=newest', 'before=0', 'before=-3', 'before=x', 'order=desc&before=1.5'])
    await expectError(await request.get(`/silo/v1/events?${bad}`, { headers: bearer(key) }), 422, 'validation');
});
