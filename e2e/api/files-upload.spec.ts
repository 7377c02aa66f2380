// Files sent as a placeholder and uploaded to its url (docs/api.md, Files, Uploads, Versions, Limits):
// the signed url, streaming, size and checksum checks, resume, races and replacement atomicity.
import { randomBytes, randomUUID, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { bearer, expect, test } from '../fixtures';
import { createEntry, expectError, inlineFile, sha256, b64 } from './helpers';

async function placeholder(
  request: import('@playwright/test').APIRequestContext,
  key: string,
  entryId: string,
  bytes: Buffer,
  extra: object = {},
) {
  const res = await request.post(`/silo/v1/entries/${entryId}/files`, {
    headers: bearer(key),
    data: { name: 'big.bin', mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length, ...extra },
  });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

test.describe('the upload url', () => {
  test('a placeholder is stored by a PUT to its url; the same bytes again answer 200, other bytes 409', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const bytes = randomBytes(100_000);
    const p = await placeholder(request, liveKey, entry.id, bytes);
    expect(p).toMatchObject({ entry_id: entry.id, name: 'big.bin', mime: 'application/octet-stream', size: bytes.length, stored: false });
    await expectError(await request.get(`/silo/v1/entries/${entry.id}/files/${p.id}`, { headers: bearer(liveKey) }), 409, 'not_stored');
    const put = await request.put(p.url, { headers: { 'Content-Type': 'application/octet-stream' }, data: bytes });
    expect(put.status(), await put.text()).toBe(200);
    expect(await put.json()).toMatchObject({ id: p.id, stored: true, hash: sha256(bytes) });
    const again = await request.put(p.url, { data: bytes });
    expect(again.status()).toBe(200);
    await expectError(await request.put(p.url, { data: randomBytes(100_000) }), 409, 'conflict');
    const got = await request.get(p.url);
    expect(Buffer.compare(await got.body(), bytes)).toBe(0);
    expect(got.headers()['content-length']).toBe(String(bytes.length));
  });

  test('a PUT to …/files/{id}/data with Bearer credentials uploads too', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const other = await newOwner('B');
    const entry = await createEntry(request, liveKey);
    const bytes = Buffer.from('bearer upload');
    const p = await placeholder(request, liveKey, entry.id, bytes);
    await expectError(await request.put(`/silo/v1/entries/${entry.id}/files/${p.id}/data`, { data: bytes }), 401);
    await expectError(
      await request.put(`/silo/v1/entries/${entry.id}/files/${p.id}/data`, { headers: bearer(other.liveKey), data: bytes }),
      404,
    );
    const res = await request.put(`/silo/v1/entries/${entry.id}/files/${p.id}/data`, {
      headers: { ...bearer(liveKey), 'Content-Type': 'application/octet-stream' },
      data: bytes,
    });
    expect(res.status()).toBe(200);
    expect((await res.json()).stored).toBe(true);
  });

  test('a placeholder PUT with a caller id is safe to repeat; the record keeps its url', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const id = randomUUID();
    const bytes = Buffer.from('retry me');
    const data = { name: 'r.bin', mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length };
    const first = await request.put(`/silo/v1/entries/${entry.id}/files/${id}`, { headers: bearer(liveKey), data });
    expect(first.status()).toBe(201);
    const again = await request.put(`/silo/v1/entries/${entry.id}/files/${id}`, { headers: bearer(liveKey), data });
    expect(again.status()).toBe(200);
    expect((await again.json()).stored).toBe(false);
    expect((await request.put((await first.json()).url, { data: bytes })).status()).toBe(200);
    const done = await request.put(`/silo/v1/entries/${entry.id}/files/${id}`, { headers: bearer(liveKey), data });
    expect(done.status()).toBe(200);
    expect((await done.json()).stored).toBe(true);
    await expectError(
      await request.put(`/silo/v1/entries/${entry.id}/files/${id}`, { headers: bearer(liveKey), data: { ...data, size: 9 } }),
      409,
      'conflict',
    );
  });
});

test.describe('checks while streaming', () => {
  test('a wrong checksum, a short body or a long body store nothing and leave the placeholder ready', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const bytes = randomBytes(50_000);
    const p = await placeholder(request, liveKey, entry.id, bytes);
    const tampered = Buffer.from(bytes);
    tampered[10] ^= 1;
    await expectError(await request.put(p.url, { data: tampered }), 422, 'checksum_mismatch');
    await expectError(await request.put(p.url, { data: bytes.subarray(0, 100) }), 422, 'size_mismatch');
    await expectError(await request.put(p.url, { data: Buffer.concat([bytes, Buffer.from('x')]) }), 413, 'too_large');
    const state = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(state.list[0]).toMatchObject({ id: p.id, stored: false });
    const head = await request.head(p.url);
    expect(head.status()).toBe(204);
    expect(head.headers()['upload-offset']).toBe('0');
    expect((await request.put(p.url, { data: bytes })).status()).toBe(200);
  });

  test('a streamed body answers 413 as soon as it passes the size, not after reading it all', async ({ request, newOwner, server }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const bytes = randomBytes(1024);
    const p = await placeholder(request, liveKey, entry.id, bytes);
    // Chunked body (no Content-Length) that would go on for 1 GiB: the server must answer early.
    let sent = 0;
    const endless = new Readable({
      read() {
        if (sent > 1024 ** 3) return this.push(null);
        sent += 1024 * 1024;
        this.push(Buffer.alloc(1024 * 1024));
      },
    });
    const res = await fetch(p.url.replace(/^http:\/\/[^/]+/, server.url), {
      method: 'PUT',
      body: Readable.toWeb(endless) as ReadableStream,
      duplex: 'half',
    } as RequestInit).catch((e) => e);
    if (res instanceof Response) {
      expect(res.status).toBe(413);
      expect((await res.json()).key).toBe('too_large');
    }
    expect(sent).toBeLessThan(256 * 1024 * 1024);
    const state = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(state.list[0].stored).toBe(false);
  });

  test('64 MiB stream through the url and back, byte for byte', async ({ request, newOwner, server }) => {
    test.setTimeout(180_000);
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const size = 64 * 1024 * 1024;
    const chunk = randomBytes(1024 * 1024);
    const hash = createHash('sha256');
    for (let i = 0; i < 64; i++) hash.update(chunk);
    const digest = hash.digest('hex');
    const p = await (
      await request.post(`/silo/v1/entries/${entry.id}/files`, {
        headers: bearer(liveKey),
        data: { name: 'huge.bin', mime: 'application/octet-stream', sha256: digest, size },
      })
    ).json();
    let i = 0;
    const body = new Readable({
      read() {
        this.push(i++ < 64 ? chunk : null);
      },
    });
    const put = await fetch(p.url.replace(/^http:\/\/[^/]+/, server.url), {
      method: 'PUT',
      headers: { 'Content-Length': String(size), 'Content-Type': 'application/octet-stream' },
      body: Readable.toWeb(body) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(put.status).toBe(200);
    const got = await fetch(p.url.replace(/^http:\/\/[^/]+/, server.url));
    expect(got.headers.get('content-length')).toBe(String(size));
    const check = createHash('sha256');
    let n = 0;
    for await (const c of got.body as unknown as AsyncIterable<Uint8Array>) {
      check.update(c);
      n += c.length;
    }
    expect(n).toBe(size);
    expect(check.digest('hex')).toBe(digest);
  });

  test('a declared size over the file limit answers 413; a bad sha256 422', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const post = (data: object) => request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data });
    await expectError(await post({ name: 'a', mime: 'application/pdf', sha256: 'a'.repeat(64), size: 6 * 1024 ** 3 }), 413, 'too_large');
    const bad = await expectError(await post({ name: 'a', mime: 'application/pdf', sha256: 'xyz', size: 1 }), 422, 'validation');
    expect(bad.fields?.sha256).toBe('must be 64 hexadecimal characters');
  });
});

test.describe('resume', () => {
  test('a cut upload is held: HEAD tells its offset, Content-Range resumes, a wrong offset 409', async ({ request, newOwner, server }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const bytes = randomBytes(3 * 1024 * 1024);
    const p = await placeholder(request, liveKey, entry.id, bytes);
    const url = p.url.replace(/^http:\/\/[^/]+/, server.url);
    // send the first MiB, then hang up mid-body once the server holds it
    const controller = new AbortController();
    const held = async () => Number((await request.head(p.url)).headers()['upload-offset']);
    let pushed = 0;
    const body = new Readable({
      read() {
        if (pushed++ === 0) this.push(bytes.subarray(0, 1024 * 1024));
        else {
          const hangUp = () => controller.abort();
          // biome-ignore lint/correctness/noPlaywrightMissingAwait: runs beside the upload it ends; read() must not wait
          void expect
            .poll(held)
            .toBe(1024 * 1024)
            .then(hangUp, hangUp);
        }
      },
    });
    await fetch(url, {
      method: 'PUT',
      headers: { 'Content-Length': String(bytes.length) },
      body: Readable.toWeb(body) as ReadableStream,
      duplex: 'half',
      signal: controller.signal,
    } as RequestInit).catch(() => undefined);
    const offset = await held();
    expect(offset).toBe(1024 * 1024);
    const head = await request.head(p.url);
    expect(head.headers()['upload-length']).toBe(String(bytes.length));
    const wrong = await request.put(p.url, {
      headers: { 'Content-Range': `bytes 5-${bytes.length - 1}/${bytes.length}` },
      data: bytes.subarray(5),
    });
    await expectError(wrong, 409, 'offset_mismatch');
    expect(wrong.headers()['upload-offset']).toBe(String(offset));
    // a chunk in the middle answers 204 with the new offset
    const mid = 2 * 1024 * 1024;
    const chunk = await request.put(p.url, {
      headers: { 'Content-Range': `bytes ${offset}-${mid - 1}/${bytes.length}` },
      data: bytes.subarray(offset, mid),
    });
    expect(chunk.status()).toBe(204);
    expect(chunk.headers()['upload-offset']).toBe(String(mid));
    const last = await request.put(p.url, { headers: { 'Content-Range': `bytes ${mid}-*/${bytes.length}` }, data: bytes.subarray(mid) });
    expect(last.status(), await last.text()).toBe(200);
    expect((await last.json()).stored).toBe(true);
    expect(Buffer.compare(await (await request.get(p.url)).body(), bytes)).toBe(0);
  });
});

test.describe('replacement and races', () => {
  test('a placeholder does not displace the current file until its bytes are stored, then swaps', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const v1 = await inlineFile(request, liveKey, entry.id, { name: 'inv.pdf', data: b64('v1'), mime: 'application/pdf' });
    const bytes = Buffer.from('v2 bytes');
    const p = await placeholder(request, liveKey, entry.id, bytes, { name: 'inv.pdf', mime: 'application/pdf' });
    let list = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(list.list.map((f: { id: string }) => f.id)).toEqual([v1.id]);
    await request.put(p.url, { data: bytes });
    list = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(list.list.map((f: { id: string }) => f.id)).toEqual([p.id]);
    expect(list.list[0].previous.map((x: { id: string }) => x.id)).toEqual([v1.id]);
  });

  test('concurrent replacements of one file lose no version', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const n = 12;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        request.post(`/silo/v1/entries/${entry.id}/files`, {
          headers: bearer(liveKey),
          data: { name: 'same.txt', data: b64(`version ${i}`) },
        }),
      ),
    );
    for (const r of results) expect(r.status()).toBe(201);
    const ids = await Promise.all(results.map(async (r) => (await r.json()).id));
    const list = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(list.list).toHaveLength(1);
    const all = [list.list[0].id, ...list.list[0].previous.map((p: { id: string }) => p.id)];
    expect(all.sort()).toEqual([...ids].sort());
  });

  test('two uploads racing to one placeholder never mix bytes', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const bytes = randomBytes(2 * 1024 * 1024);
    const p = await placeholder(request, liveKey, entry.id, bytes);
    const other = randomBytes(bytes.length);
    const [a, b] = await Promise.all([request.put(p.url, { data: bytes }), request.put(p.url, { data: other })]);
    // One wins the placeholder, the other is told it is busy (409) or fails its checksum (422).
    for (const r of [a, b]) expect([200, 409, 422]).toContain(r.status());
    const stored = await request.get(p.url);
    if (stored.status() === 409) expect((await request.put(p.url, { data: bytes })).status()).toBe(200);
    expect(Buffer.compare(await (await request.get(p.url)).body(), bytes)).toBe(0);
  });
});
