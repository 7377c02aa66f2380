// Uploads racing deletes and inline completion (issue 9, item 4): the loser gets 404 or 409 with
// the contract body, never 500; a delete never pulls held bytes out from under a running upload;
// the end state is consistent: the file gone with its bytes, or stored with exactly its bytes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, sha256 } from './helpers';
import { errorOf, heldCopies, onServer, sleep, trickle, type Outcome } from './raw-http';

const ROUNDS = 10;

async function placeholder(request: APIRequestContext, key: string, entryId: string, bytes: Buffer, id = randomUUID()) {
  const data = { name: `race-${id}.bin`, mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length };
  const res = await request.put(`/silo/v1/entries/${entryId}/files/${id}`, { headers: bearer(key), data });
  expect(res.status(), await res.text()).toBe(201);
  return { ...(await res.json()), fields: data } as { id: string; url: string; fields: typeof data };
}

const statusOf = (o: Outcome) => (o instanceof Error ? o.message : o.status);
const blobPath = (storageDir: string, hash: string) => path.join(storageDir, 'sha256', hash.slice(0, 2), hash);

test.describe('uploads racing deletes and inline completion', () => {
  for (const target of ['file', 'entry'] as const) {
    test(`deleting the ${target} while its upload streams: 200 or 404, never 500; the file and its bytes are gone`, async ({
      request,
      newOwner,
      server,
    }) => {
      test.setTimeout(240_000);
      const { liveKey } = await newOwner();
      const seen: Record<string, number> = {};
      for (let round = 0; round < ROUNDS; round++) {
        const entry = await createEntry(request, liveKey);
        const bytes = randomBytes(384 * 1024);
        const p = await placeholder(request, liveKey, entry.id, bytes);
        const upload = trickle(onServer(p.url, server.url), bytes, { pieces: 6, pauseMs: 30 });
        // Vary the moment of the delete: before the first byte, mid-stream, near the end.
        await sleep((round % 5) * 50);
        const del = await request.delete(
          target === 'file' ? `/silo/v1/entries/${entry.id}/files/${p.id}` : `/silo/v1/entries/${entry.id}`,
          { headers: bearer(liveKey) },
        );
        expect(del.status(), await del.text()).toBe(204);
        const up = await upload;
        const status = statusOf(up);
        seen[status] = (seen[status] ?? 0) + 1;
        // A delete before the first byte is answered 404 at once and the connection closed: a
        // client still writing may see the close (EPIPE) before it reads that answer.
        expect([200, 404, 'write EPIPE', 'write ECONNRESET'], `round ${round}: ${JSON.stringify(up)}`).toContain(status);
        if (status === 404) expect(errorOf(up).key).toBe('not_found');
        await expectError(await request.get(`/silo/v1/entries/${entry.id}/files/${p.id}`, { headers: bearer(liveKey) }), 404, 'not_found');
        expect((await request.head(p.url)).status()).toBe(404);
        expect(await heldCopies(server.dataDir)).not.toContain(p.id);
        expect(existsSync(blobPath(server.storageDir, sha256(bytes)))).toBe(false);
      }
      // In the report, not the console: a passing run stays quiet.
      test.info().annotations.push({ type: 'outcomes', description: `delete ${target} during upload: ${JSON.stringify(seen)}` });
    });
  }

  test('an inline completion racing an upload of the same placeholder: one stores, the other 409 or the same record', async ({
    request,
    newOwner,
    server,
  }) => {
    test.setTimeout(240_000);
    const { liveKey } = await newOwner();
    const seen: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const entry = await createEntry(request, liveKey);
      const bytes = randomBytes(256 * 1024);
      const p = await placeholder(request, liveKey, entry.id, bytes);
      const upload = trickle(onServer(p.url, server.url), bytes, { pieces: 4, pauseMs: 30 });
      await sleep((round % 5) * 40);
      const inline = await request.put(`/silo/v1/entries/${entry.id}/files/${p.id}`, {
        headers: bearer(liveKey),
        data: { ...p.fields, data: b64(bytes) },
      });
      const up = await upload;
      const key = `upload ${statusOf(up)} / inline ${inline.status()}`;
      seen[key] = (seen[key] ?? 0) + 1;
      expect([200, 409], `round ${round} upload: ${JSON.stringify(up)}`).toContain(statusOf(up));
      if (statusOf(up) === 409) expect(errorOf(up).key).toBe('upload_in_progress');
      if (inline.status() === 409) await expectError(inline, 409, 'upload_in_progress');
      else expect(inline.status(), await inline.text()).toBe(200);
      expect(statusOf(up) === 200 || inline.status() === 200).toBe(true);
      const record = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
      expect(record.list).toHaveLength(1);
      expect(record.list[0]).toMatchObject({ id: p.id, stored: true, size: bytes.length, hash: sha256(bytes), previous: [] });
      expect(Buffer.compare(await (await request.get(p.url)).body(), bytes)).toBe(0);
      expect(await heldCopies(server.dataDir)).not.toContain(p.id);
    }
    test.info().annotations.push({ type: 'outcomes', description: `inline completion vs upload: ${JSON.stringify(seen)}` });
  });

  test('an upload to a placeholder deleted before it starts answers 404 and holds nothing', async ({ request, newOwner, server }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const bytes = randomBytes(10_000);
    const p = await placeholder(request, liveKey, entry.id, bytes);
    expect((await request.delete(`/silo/v1/entries/${entry.id}/files/${p.id}`, { headers: bearer(liveKey) })).status()).toBe(204);
    await expectError(await request.put(p.url, { data: bytes }), 404, 'not_found');
    expect(await heldCopies(server.dataDir)).not.toContain(p.id);
  });
});
