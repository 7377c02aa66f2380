// What a file's url lets a holder do (issue 9, items 9 and 10): a stored private file's url needs
// credentials for every method (no content oracle by PUT), bytes compared with a stored file are
// never written, and a chunk longer than its Content-Range keeps what was held before it.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, sha256 } from './helpers';
import { errorOf, heldCopies, onServer, openPut } from './raw-http';

async function placeholder(request: APIRequestContext, key: string, entryId: string, bytes: Buffer) {
  const res = await request.post(`/silo/v1/entries/${entryId}/files`, {
    headers: bearer(key),
    data: { name: 'chunks.bin', mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; url: string };
}

test.describe("what a file's url lets its holder do", () => {
  test("a stored private file's url needs credentials for PUT and HEAD as for GET: no content oracle", async ({ request, newOwner }) => {
    const owner = await newOwner();
    const other = await newOwner('Other');
    const entry = await createEntry(request, owner.liveKey);
    const secret = Buffer.from('the private bytes nobody may confirm');
    const res = await request.post(`/silo/v1/entries/${entry.id}/files`, {
      headers: bearer(owner.liveKey),
      data: { name: 'secret.txt', private: true, data: b64(secret) },
    });
    expect(res.status()).toBe(201);
    const { url } = await res.json();
    // Without credentials every method answers 401, whether the guess is right or wrong.
    await expectError(await request.put(url, { data: secret }), 401, 'unauthorized');
    await expectError(await request.put(url, { data: Buffer.from('a wrong guess') }), 401, 'unauthorized');
    expect((await request.head(url)).status()).toBe(401);
    await expectError(await request.get(url), 401, 'unauthorized');
    // Another owner's credentials: the file does not exist for them.
    await expectError(await request.put(url, { headers: bearer(other.liveKey), data: secret }), 404, 'not_found');
    expect((await request.head(url, { headers: bearer(other.liveKey) })).status()).toBe(404);
    // The owner compares as on a public file.
    expect((await request.put(url, { headers: bearer(owner.liveKey), data: secret })).status()).toBe(200);
    await expectError(await request.put(url, { headers: bearer(owner.liveKey), data: Buffer.from('other bytes') }), 409, 'conflict');
    expect((await request.head(url, { headers: bearer(owner.liveKey) })).status()).toBe(200);
  });

  test('bytes compared with a stored public file: 200 the same, 409 other, shorter or longer ones; nothing is written', async ({
    request,
    newOwner,
    server,
  }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const bytes = randomBytes(64 * 1024);
    const { url } = await (
      await request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data: { name: 'public.bin', data: b64(bytes) } })
    ).json();
    const before = await heldCopies(server.storageDir);
    expect((await request.put(url, { data: bytes })).status()).toBe(200);
    await expectError(await request.put(url, { data: randomBytes(bytes.length) }), 409, 'conflict');
    await expectError(await request.put(url, { data: bytes.subarray(1) }), 409, 'conflict');
    await expectError(await request.put(url, { data: Buffer.concat([bytes, Buffer.from('!')]) }), 409, 'conflict');
    expect(await heldCopies(server.storageDir)).toEqual(before);
  });

  for (const framing of ['Content-Length', 'chunked'] as const) {
    test(`a chunk longer than its Content-Range (${framing}) answers 413 and keeps the bytes held before it`, async ({
      request,
      newOwner,
      server,
    }) => {
      const { liveKey } = await newOwner();
      const entry = await createEntry(request, liveKey);
      const bytes = randomBytes(3000);
      const p = await placeholder(request, liveKey, entry.id, bytes);
      const first = await request.put(p.url, { headers: { 'Content-Range': 'bytes 0-999/3000' }, data: bytes.subarray(0, 1000) });
      expect(first.status(), await first.text()).toBe(204);
      expect(first.headers()['upload-offset']).toBe('1000');
      // Says 1000 bytes, sends 1500.
      const put = openPut(onServer(p.url, server.url), {
        'Content-Range': 'bytes 1000-1999/3000',
        ...(framing === 'Content-Length' ? { 'Content-Length': 1500 } : { 'Transfer-Encoding': 'chunked' }),
      });
      await put.write(bytes.subarray(1000, 2500));
      put.end();
      const answer = await put.outcome;
      expect(answer instanceof Error ? answer.message : answer.status).toBe(413);
      expect(errorOf(answer).key).toBe('too_large');
      const head = await request.head(p.url);
      expect(head.status()).toBe(204);
      expect(head.headers()['upload-offset']).toBe('1000');
      const rest = await request.put(p.url, { headers: { 'Content-Range': 'bytes 1000-2999/3000' }, data: bytes.subarray(1000) });
      expect(rest.status(), await rest.text()).toBe(200);
      expect(Buffer.compare(await (await request.get(p.url)).body(), bytes)).toBe(0);
    });
  }
});
