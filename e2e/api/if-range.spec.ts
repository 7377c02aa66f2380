// Issue 20, item 10: If-Range (RFC 9110 §13.1.5). A Range applies only when If-Range names exactly
// what is served (our strong ETag, or our Last-Modified date); otherwise the whole file, 200. On the
// credentialed GET, the file's url and a link alike. On the old code every case here answered 206.
import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, inlineFile } from './helpers';

const BYTES = Buffer.from(Array.from({ length: 100 }, (_, i) => i));

test('If-Range: a matching strong ETag or the exact Last-Modified gives 206; anything else the whole file', async ({
  request,
  newOwner,
  playwright,
}) => {
  const { liveKey } = await newOwner();
  const entry = await createEntry(request, liveKey);
  const file = await inlineFile(request, liveKey, entry.id, { name: 'r.bin', data: b64(BYTES) });
  const linkRes = await request.post(`/silo/v1/entries/${entry.id}/files/${file.id}/links`, {
    headers: bearer(liveKey),
    data: { expires_in: 600 },
  });
  expect(linkRes.status()).toBe(201);
  const anon: APIRequestContext = await playwright.request.newContext();
  const ways: [string, (headers: Record<string, string>) => ReturnType<APIRequestContext['get']>][] = [
    ['credentialed GET', (h) => request.get(`/silo/v1/entries/${entry.id}/files/${file.id}`, { headers: { ...bearer(liveKey), ...h } })],
    ["the file's url", (h) => anon.get(file.url, { headers: h })],
    ['a link', async (h) => anon.get((await linkRes.json()).url, { headers: h })],
  ];
  for (const [way, get] of ways) {
    const whole = await get({});
    expect(whole.status(), way).toBe(200);
    const etag = whole.headers().etag;
    const lastModified = whole.headers()['last-modified'];
    expect(etag, way).toBe(`"${file.hash}"`);
    expect(new Date(lastModified).toUTCString(), way).toBe(lastModified);
    const later = new Date(Date.parse(lastModified) + 1000).toUTCString();
    const earlier = new Date(Date.parse(lastModified) - 86_400_000).toUTCString();

    for (const ifRange of [etag, lastModified]) {
      const part = await get({ Range: 'bytes=10-19', 'If-Range': ifRange });
      expect(part.status(), `${way}: ${ifRange}`).toBe(206);
      expect(part.headers()['content-range']).toBe('bytes 10-19/100');
      expect(await part.body()).toEqual(BYTES.subarray(10, 20));
    }
    for (const ifRange of [`W/${etag}`, '"0000"', later, earlier, 'not a validator']) {
      const res = await get({ Range: 'bytes=10-19', 'If-Range': ifRange });
      expect(res.status(), `${way}: ${ifRange}`).toBe(200);
      expect(res.headers()['content-range'], `${way}: ${ifRange}`).toBeUndefined();
      expect(await res.body()).toEqual(BYTES);
    }
    // an unsatisfiable Range under a failing If-Range is ignored too: the whole file, not 416
    expect((await get({ Range: 'bytes=500-', 'If-Range': '"0000"' })).status(), way).toBe(200);
  }
  await anon.dispose();
});
