// Repeating a PUT is safe (docs/api.md, Entries and Versions): twenty identical PUTs of one caller id at once answer
// one 201 and nineteen 200 with the same body, round after round, on PGlite and on PostgreSQL.
import { randomUUID } from 'node:crypto';
import type { APIResponse } from '@playwright/test';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, sha256 } from './helpers';

const ROUNDS = 10;
const CONCURRENT = 20;

/** 1×201 + 19×200, every body the same record. */
async function expectOneCreated(responses: APIResponse[]) {
  const statuses = responses.map((r) => r.status());
  const texts = await Promise.all(responses.map((r) => r.text()));
  expect(
    statuses.filter((s) => s === 201),
    texts.join('\n'),
  ).toHaveLength(1);
  expect(
    statuses.filter((s) => s === 200),
    texts.join('\n'),
  ).toHaveLength(CONCURRENT - 1);
  expect(new Set(texts.map((t) => JSON.stringify(JSON.parse(t)))).size, texts.join('\n')).toBe(1);
  return JSON.parse(texts[0]);
}

const all = (n: number, send: () => Promise<APIResponse>) => Promise.all(Array.from({ length: n }, send));

test.describe('concurrent identical PUTs', () => {
  test('20 concurrent identical PUTs of an entry with a key: 1×201, 19×200', async ({ request, newOwner }) => {
    test.setTimeout(300_000);
    const { liveKey } = await newOwner();
    for (let round = 0; round < ROUNDS; round++) {
      const id = randomUUID();
      const data = { key: `invoice-${round}`, folder: 'sales', name: `Invoice ${round}`, meta: { round: String(round) } };
      const entry = await expectOneCreated(
        await all(CONCURRENT, () => request.put(`/silo/v1/entries/${id}`, { headers: bearer(liveKey), data })),
      );
      expect(entry).toMatchObject({ id, ...data });
    }
    const list = await (await request.get('/silo/v1/entries?limit=100', { headers: bearer(liveKey) })).json();
    expect(list.list).toHaveLength(ROUNDS);
    // The key stays unique: another id with a taken key is refused.
    const clash = await request.put(`/silo/v1/entries/${randomUUID()}`, { headers: bearer(liveKey), data: { key: 'invoice-0' } });
    expect(clash.status()).toBe(409);
  });

  test('20 concurrent identical PUTs of an inline file: 1×201, 19×200, one version', async ({ request, newOwner }) => {
    test.setTimeout(300_000);
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    for (let round = 0; round < ROUNDS; round++) {
      const id = randomUUID();
      const data = { name: `r${round}.txt`, data: b64(`round ${round}`), mime: 'text/plain', key: `k${round}`, meta: { r: String(round) } };
      const file = await expectOneCreated(
        await all(CONCURRENT, () => request.put(`/silo/v1/entries/${entry.id}/files/${id}`, { headers: bearer(liveKey), data })),
      );
      expect(file).toMatchObject({ id, stored: true, hash: sha256(`round ${round}`), previous: [] });
    }
    const files = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(files.list).toHaveLength(ROUNDS);
    expect(files.list.every((f: { previous: unknown[] }) => f.previous.length === 0)).toBe(true);
  });

  test('20 concurrent identical PUTs of a placeholder: 1×201, 19×200, one url', async ({ request, newOwner }) => {
    test.setTimeout(300_000);
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    for (let round = 0; round < ROUNDS; round++) {
      const id = randomUUID();
      const bytes = `placeholder ${round}`;
      const data = { name: `p${round}.bin`, mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length };
      const file = await expectOneCreated(
        await all(CONCURRENT, () => request.put(`/silo/v1/entries/${entry.id}/files/${id}`, { headers: bearer(liveKey), data })),
      );
      expect(file).toMatchObject({ id, stored: false });
      const upload = await request.put(file.url, { data: Buffer.from(bytes) });
      expect(upload.status(), await upload.text()).toBe(200);
    }
  });
});
