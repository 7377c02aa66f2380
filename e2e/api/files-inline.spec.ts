// Files sent inline (docs/api.md, Files, Versions, Fetch, Limits): the record, validation and limits,
// idempotent PUT, replacement and versions, restore, delete, patch, private files and fetch headers.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, inlineFile, sha256 } from './helpers';

test.describe('inline uploads', () => {
  test('an inline upload answers 201 with the record and Location, fills defaults and serves the bytes', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const res = await request.post(`/silo/v1/entries/${entry.id}/files`, {
      headers: bearer(liveKey),
      data: { name: 'factura.xml', data: b64('<Invoice/>'), mime: 'application/xml', meta: { v: '1' } },
    });
    expect(res.status()).toBe(201);
    const f = await res.json();
    expect(res.headers().location).toBe(`/silo/v1/entries/${entry.id}/files/${f.id}`);
    expect(f).toMatchObject({
      entry_id: entry.id,
      name: 'factura.xml',
      category: 'attachment',
      mime: 'application/xml',
      size: 10,
      hash: sha256('<Invoice/>'),
      stored: true,
      embeddable: false,
      private: false,
      meta: { v: '1' },
      previous: [],
    });
    expect(f.url).toMatch(/\/silo\/v1\/files\/[0-9a-f-]{36}\?sig=/);
    const got = await request.get(`/silo/v1/entries/${entry.id}/files/${f.id}`, { headers: bearer(liveKey) });
    expect(got.status()).toBe(200);
    expect(await got.text()).toBe('<Invoice/>');
    expect(got.headers()['content-length']).toBe('10');
    expect(got.headers()['content-type']).toBe('application/xml');
    expect(got.headers()['content-disposition']).toBe(`attachment; filename="factura.xml"; filename*=UTF-8''factura.xml`);
    const def = await inlineFile(request, liveKey, entry.id, { name: 'blob', data: b64('x') });
    expect(def.mime).toBe('application/octet-stream');
  });

  test('inline data must be base64 matching its sha256 and size; category, name and meta are checked', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const post = (data: object) => request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data });
    await expectError(await post({ name: 'a', data: '@@@' }), 400, 'bad_base64');
    await expectError(await post({ name: 'a', data: b64('abc'), sha256: sha256('abd') }), 422, 'checksum_mismatch');
    await expectError(await post({ name: 'a', data: b64('abc'), size: 4 }), 422, 'size_mismatch');
    const cat = await expectError(await post({ name: 'a', data: b64('abc'), category: 'other' }), 422, 'validation');
    expect(cat.fields?.category).toBeTruthy();
    await expectError(await post({ name: '', data: b64('abc') }), 422, 'validation');
    await expectError(await post({ name: 'x'.repeat(256), data: b64('abc') }), 422, 'validation');
    expect((await post({ name: 'ñ'.repeat(255), data: b64('abc') })).status()).toBe(201);
    await expectError(await post({ name: 'a\nb', data: b64('abc') }), 422, 'validation');
    const missing = await expectError(await post({ name: 'a' }), 422, 'validation');
    expect(Object.keys(missing.fields ?? {}).sort()).toEqual(['mime', 'sha256', 'size']);
    const manyMeta = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    await expectError(await post({ name: 'a', data: b64('abc'), meta: manyMeta }), 422, 'validation');
    await expectError(await post({ name: 'a', data: b64('abc'), meta: { k: 'v'.repeat(1025) } }), 422, 'validation');
    await expectError(await post({ name: 'a', data: b64('abc'), meta: { ['k'.repeat(65)]: 'v' } }), 422, 'validation');
    // inline data over 5 MiB decoded must stream instead
    await expectError(await post({ name: 'a', data: Buffer.alloc(5 * 1024 * 1024 + 1).toString('base64') }), 413, 'too_large');
    // nothing of that was stored
    const files = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(files.list.map((f: { name: string }) => f.name)).toEqual(['ñ'.repeat(255)]);
  });
});

test.describe("the POST of a file, on Node's own request", () => {
  test('a chunked JSON body past the limit answers 413 as soon as it passes it; OPTIONS and other methods answer as on every path', async ({
    request,
    newOwner,
    server,
  }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    // No Content-Length, and 1 MiB past the JSON limit (7 MiB and a bit, for 5 MiB inline): the
    // server stops reading at the limit, and the 413 still reaches a client that is still sending
    // (node-route.ts reads and drops the rest; protocol.spec.ts has the slow client).
    const chunks = [Buffer.from('{"name":"big.bin","data":"'), ...Array.from({ length: 8 }, () => Buffer.alloc(1024 * 1024, 'A'))];
    const res = await fetch(`${server.url}/silo/v1/entries/${entry.id}/files`, {
      method: 'POST',
      headers: { ...bearer(liveKey), 'Content-Type': 'application/json' },
      body: Readable.toWeb(Readable.from(chunks)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).key).toBe('too_large');
    expect((await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json()).list).toEqual([]);

    const options = await request.fetch(`/silo/v1/entries/${entry.id}/files`, { method: 'OPTIONS' });
    expect([options.status(), options.headers().allow]).toEqual([204, 'GET, HEAD, POST, OPTIONS']);
    const patch = await request.patch(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data: {} });
    const refused = await expectError(patch, 405, 'method_not_allowed');
    expect(refused).toBeTruthy();
    expect(patch.headers().allow).toBe('GET, HEAD, POST, OPTIONS');
    // A HEAD of the list answers its headers, no body.
    const head = await request.head(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) });
    expect([head.status(), head.headers()['content-type'], (await head.body()).length]).toEqual([
      200,
      'application/json; charset=utf-8',
      0,
    ]);
  });
});

test.describe('limits', () => {
  test('a file key holds 255 characters, a desc 1,024, an entry name 255; one more is 422', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const post = (data: object) =>
      request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data: { name: 'a', data: b64('a'), ...data } });
    expect((await post({ key: 'k'.repeat(255), desc: 'd'.repeat(1024) })).status()).toBe(201);
    await expectError(await post({ key: 'k'.repeat(256) }), 422, 'validation');
    await expectError(await post({ desc: 'd'.repeat(1025) }), 422, 'validation');
    await expectError(
      await request.post('/silo/v1/entries', { headers: bearer(liveKey), data: { name: 'n'.repeat(256) } }),
      422,
      'validation',
    );
  });
});

test.describe('idempotent PUT', () => {
  test('a file PUT answers 201, 200 when repeated (no new version), 409 with other values or entry', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const other = await createEntry(request, liveKey);
    const id = randomUUID();
    const put = (entryId: string, data: object) =>
      request.put(`/silo/v1/entries/${entryId}/files/${id}`, { headers: bearer(liveKey), data });
    const first = await put(entry.id, { name: 'a.pdf', data: b64('%PDF-1'), mime: 'application/pdf' });
    expect(first.status()).toBe(201);
    expect((await first.json()).id).toBe(id);
    const again = await put(entry.id, { name: 'a.pdf', data: b64('%PDF-1'), mime: 'application/pdf' });
    expect(again.status()).toBe(200);
    expect((await again.json()).previous).toEqual([]);
    await expectError(await put(entry.id, { name: 'a.pdf', data: b64('%PDF-2'), mime: 'application/pdf' }), 409, 'conflict');
    await expectError(await put(other.id, { name: 'a.pdf', data: b64('%PDF-1'), mime: 'application/pdf' }), 409, 'conflict');
    const list = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(list.list).toHaveLength(1);
  });
});

test.describe('versions', () => {
  test('a file replaced by category + key (or name) keeps every version newest first; restore, delete', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const v1 = await inlineFile(request, liveKey, entry.id, { name: 'inv.pdf', data: b64('one'), mime: 'application/pdf' });
    const v2 = await inlineFile(request, liveKey, entry.id, { name: 'inv.pdf', data: b64('two'), mime: 'application/pdf' });
    const v3 = await inlineFile(request, liveKey, entry.id, { name: 'inv.pdf', data: b64('three'), mime: 'application/pdf' });
    expect(v3.previous.map((p: { id: string }) => p.id)).toEqual([v2.id, v1.id]);
    expect(v3.previous[0]).toEqual({
      id: v2.id,
      name: 'inv.pdf',
      hash: sha256('two'),
      size: 3,
      desc: '',
      version: 2,
      created_by: v2.created_by,
      restored_from: null,
      retention: null,
      legal_hold: false,
      created_at: v2.created_at,
    });
    // same name in the other category, and a key that overrides the name: separate files
    await inlineFile(request, liveKey, entry.id, { name: 'inv.pdf', category: 'format', data: b64('fmt') });
    const k1 = await inlineFile(request, liveKey, entry.id, { name: 'x.xml', key: 'ubl', data: b64('u1') });
    const k2 = await inlineFile(request, liveKey, entry.id, { name: 'y.xml', key: 'ubl', data: b64('u2') });
    expect(k2.previous.map((p: { id: string; name: string }) => [p.id, p.name])).toEqual([[k1.id, 'x.xml']]);
    const list = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(list.list).toHaveLength(3);
    const entryView = await (await request.get(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey) })).json();
    expect(entryView.attachments.map((f: { id: string }) => f.id).sort()).toEqual(list.list.map((f: { id: string }) => f.id).sort());
    // every version stays fetchable by its own id
    expect(await (await request.get(`/silo/v1/entries/${entry.id}/files/${v1.id}`, { headers: bearer(liveKey) })).text()).toBe('one');
    // restore v1: a new current version with v1's bytes
    const restored = await request.post(`/silo/v1/entries/${entry.id}/files/${v1.id}/restore`, { headers: bearer(liveKey) });
    expect(restored.status()).toBe(201);
    const v4 = await restored.json();
    expect(v4.hash).toBe(sha256('one'));
    expect(v4.previous.map((p: { id: string }) => p.id)).toEqual([v3.id, v2.id, v1.id]);
    // deleting an earlier version removes that version only
    expect((await request.delete(`/silo/v1/entries/${entry.id}/files/${v2.id}`, { headers: bearer(liveKey) })).status()).toBe(204);
    await expectError(await request.get(`/silo/v1/entries/${entry.id}/files/${v2.id}`, { headers: bearer(liveKey) }), 404, 'not_found');
    const after = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    const current = after.list.find((f: { id: string }) => f.id === v4.id);
    expect(current.previous.map((p: { id: string }) => p.id)).toEqual([v3.id, v1.id]);
    // deleting the current file removes it with its history, and its link stops working
    expect((await request.delete(`/silo/v1/entries/${entry.id}/files/${v4.id}`, { headers: bearer(liveKey) })).status()).toBe(204);
    for (const id of [v1.id, v3.id, v4.id])
      await expectError(await request.get(`/silo/v1/entries/${entry.id}/files/${id}`, { headers: bearer(liveKey) }), 404);
    await expectError(await request.get(v3.url), 404, 'not_found');
  });

  test('a PATCH changes desc, meta, private and embeddable without a new version', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const f = await inlineFile(request, liveKey, entry.id, { name: 'a.txt', data: b64('a') });
    const res = await request.patch(`/silo/v1/entries/${entry.id}/files/${f.id}`, {
      headers: bearer(liveKey),
      data: { desc: 'd', meta: { a: 'b' }, private: true, embeddable: true },
    });
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ id: f.id, desc: 'd', meta: { a: 'b' }, private: true, embeddable: true, previous: [] });
  });
});

test.describe('private files', () => {
  test("a private file's link alone is not enough; its owner's key or token is", async ({ request, newOwner }) => {
    const a = await newOwner();
    const b = await newOwner('B');
    const entry = await createEntry(request, a.liveKey);
    const pub = await inlineFile(request, a.liveKey, entry.id, { name: 'pub.txt', data: b64('public'), mime: 'text/plain' });
    const priv = await inlineFile(request, a.liveKey, entry.id, {
      name: 'priv.txt',
      data: b64('secret'),
      mime: 'text/plain',
      private: true,
    });
    const anon = await request.get(pub.url);
    expect(await anon.text()).toBe('public');
    expect(anon.headers()['content-disposition']).toMatch(/^inline/);
    await expectError(await request.get(priv.url), 401, 'unauthorized');
    await expectError(await request.get(priv.url, { headers: bearer(b.liveKey) }), 404, 'not_found');
    expect(await (await request.get(priv.url, { headers: bearer(a.liveKey) })).text()).toBe('secret');
    await expectError(await request.get(pub.url.replace(/sig=.*/, 'sig=forged')), 404, 'not_found');
  });

  test('an enrollment token acts as its owner everywhere, private files included', async ({ admin, request, newOwner }) => {
    const owner = await newOwner();
    const app = await (await admin.post('/admin/v1/apps', { data: { name: 'T', trusted: true } })).json();
    const { token } = await (
      await request.post('/access/v1/enrollment/authorize', {
        data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
      })
    ).json();
    const entry = await createEntry(request, owner.liveKey);
    const priv = await inlineFile(request, owner.liveKey, entry.id, { name: 'p.txt', data: b64('private'), private: true });
    expect(await (await request.get(priv.url, { headers: bearer(token) })).text()).toBe('private');
    expect(await (await request.get(`/silo/v1/entries/${entry.id}/files/${priv.id}`, { headers: bearer(token) })).text()).toBe('private');
  });
});

test.describe('fetch', () => {
  test('a fetch honours If-None-Match, Range, HEAD and download; its headers keep the bytes inert', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const f = await inlineFile(request, liveKey, entry.id, {
      name: 'page.html',
      data: b64('<script>alert(1)</script>'),
      mime: 'text/html',
    });
    const path = `/silo/v1/entries/${entry.id}/files/${f.id}`;
    const full = await request.get(path, { headers: bearer(liveKey) });
    const h = full.headers();
    expect(h.etag).toBe(`"${f.hash}"`);
    expect(h['accept-ranges']).toBe('bytes');
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['content-security-policy']).toMatch(/sandbox/);
    expect(h['content-disposition']).toMatch(/^attachment/);
    expect((await request.get(path, { headers: { ...bearer(liveKey), 'If-None-Match': `"${f.hash}"` } })).status()).toBe(304);
    const part = await request.get(path, { headers: { ...bearer(liveKey), Range: 'bytes=1-6' } });
    expect(part.status()).toBe(206);
    expect(await part.text()).toBe('script');
    expect(part.headers()['content-range']).toBe(`bytes 1-6/${f.size}`);
    const bad = await request.get(path, { headers: { ...bearer(liveKey), Range: 'bytes=999-' } });
    await expectError(bad, 416);
    expect(bad.headers()['content-range']).toBe(`bytes */${f.size}`);
    const head = await request.head(path, { headers: bearer(liveKey) });
    expect(head.status()).toBe(200);
    expect(head.headers()['content-length']).toBe(String(f.size));
    const pdf = await inlineFile(request, liveKey, entry.id, { name: 'Factura ñ.pdf', data: b64('%PDF'), mime: 'application/pdf' });
    const inline = await request.get(`/silo/v1/entries/${entry.id}/files/${pdf.id}`, { headers: bearer(liveKey) });
    expect(inline.headers()['content-disposition']).toBe(`inline; filename="Factura _.pdf"; filename*=UTF-8''Factura%20%C3%B1.pdf`);
    const dl = await request.get(`/silo/v1/entries/${entry.id}/files/${pdf.id}?download=1`, { headers: bearer(liveKey) });
    expect(dl.headers()['content-disposition']).toMatch(/^attachment/);
  });
});

test.describe('deletion', () => {
  test('deleting an entry removes its files and frees bytes nothing else uses', async ({ request, newOwner, server }) => {
    const { liveKey } = await newOwner();
    const fs = await import('node:fs/promises');
    const path = await import('node:path');
    const e1 = await createEntry(request, liveKey);
    const e2 = await createEntry(request, liveKey);
    // Over SMALL_BLOB_MAX_BYTES (128 KiB), so the bytes are files in the store (smaller ones live in the database).
    const unique = `only-here-${randomUUID()}`.padEnd(200_000, '.');
    const shared = `shared-${randomUUID()}`.padEnd(200_000, '.');
    const f = await inlineFile(request, liveKey, e1.id, { name: 'u.txt', data: b64(unique) });
    await inlineFile(request, liveKey, e1.id, { name: 's.txt', data: b64(shared) });
    await inlineFile(request, liveKey, e2.id, { name: 's.txt', data: b64(shared) });
    const blob = (s: string) => path.join(server.storageDir, 'sha256', sha256(s).slice(0, 2), sha256(s));
    await fs.access(blob(unique));
    expect((await request.delete(`/silo/v1/entries/${e1.id}`, { headers: bearer(liveKey) })).status()).toBe(204);
    await expect(fs.access(blob(unique))).rejects.toThrow();
    await fs.access(blob(shared));
    await expectError(await request.get(f.url), 404);
    expect(await (await request.get(`/silo/v1/entries/${e2.id}/files`, { headers: bearer(liveKey) })).json()).toMatchObject({
      list: [{ name: 's.txt' }],
    });
  });
});
