// Entries (docs/api.md, Entries): create, read, change and delete; unique keys; idempotent PUT;
// keyset pagination; ids; owners never see each other's entries.
import { randomUUID } from 'node:crypto';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, sha256 } from './helpers';

test.describe("an entry's life", () => {
  test('an entry is created (201, Location), read, patched and deleted (204, then 404)', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const res = await request.post('/silo/v1/entries', {
      headers: bearer(liveKey),
      data: { name: 'Invoice 1', folder: 'sales', key: 'INV-1', meta: { erp: 'x' } },
    });
    expect(res.status()).toBe(201);
    const entry = await res.json();
    expect(res.headers().location).toBe(`/silo/v1/entries/${entry.id}`);
    expect(entry).toMatchObject({ name: 'Invoice 1', folder: 'sales', key: 'INV-1', meta: { erp: 'x' }, sandbox: false });
    const got = await (await request.get(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey) })).json();
    expect(got.attachments).toEqual([]);
    const patched = await request.patch(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey), data: { folder: 'archive' } });
    expect((await patched.json()).folder).toBe('archive');
    expect((await request.delete(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey) })).status()).toBe(204);
    await expectError(await request.get(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey) }), 404, 'not_found');
  });

  test('a key is unique per owner and environment (409); another owner or the sandbox may reuse it', async ({ request, newOwner }) => {
    const a = await newOwner();
    const b = await newOwner('B');
    await createEntry(request, a.liveKey, { key: 'K1' });
    await expectError(await request.post('/silo/v1/entries', { headers: bearer(a.liveKey), data: { key: 'K1' } }), 409, 'conflict');
    await createEntry(request, a.sandboxKey, { key: 'K1' });
    await createEntry(request, b.liveKey, { key: 'K1' });
  });
});

test.describe('idempotent PUT', () => {
  test('a PUT with a caller id answers 201, 200 when repeated, 409 with other values', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const id = randomUUID();
    const put = (data: object) => request.put(`/silo/v1/entries/${id}`, { headers: bearer(liveKey), data });
    expect((await put({ name: 'A' })).status()).toBe(201);
    expect((await put({ name: 'A' })).status()).toBe(200);
    await expectError(await put({ name: 'B' }), 409, 'conflict');
  });
});

test.describe('lists', () => {
  test('a list is newest first in keyset pages, filtered by folder and key; bad limits and cursors 422', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await createEntry(request, liveKey, { name: `e${i}`, folder: i % 2 ? 'odd' : 'even', key: `k${i}` })).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await request.get(`/silo/v1/entries?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { headers: bearer(liveKey) });
      const page = await res.json();
      expect(page.limit).toBe(3);
      seen.push(...page.list.map((e: { id: string }) => e.id));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(seen).toEqual([...ids].reverse());
    const odd = await (await request.get('/silo/v1/entries?folder=odd', { headers: bearer(liveKey) })).json();
    expect(odd.list).toHaveLength(3);
    const byKey = await (await request.get('/silo/v1/entries?key=k4', { headers: bearer(liveKey) })).json();
    expect(byKey.list.map((e: { id: string }) => e.id)).toEqual([ids[4]]);
    await expectError(await request.get('/silo/v1/entries?limit=101', { headers: bearer(liveKey) }), 422, 'validation');
    await expectError(await request.get('/silo/v1/entries?cursor=garbage', { headers: bearer(liveKey) }), 422, 'validation');
  });
});

test.describe('ids', () => {
  test('ids in paths are case-insensitive and answered in lowercase; sha256 is kept lowercase', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const got = await request.get(`/silo/v1/entries/${entry.id.toUpperCase()}`, { headers: bearer(liveKey) });
    expect((await got.json()).id).toBe(entry.id);
    const bytes = Buffer.from('case');
    const p = await request.post(`/silo/v1/entries/${entry.id}/files`, {
      headers: bearer(liveKey),
      data: { name: 'c', mime: 'text/plain', sha256: sha256(bytes).toUpperCase(), size: 4 },
    });
    expect((await p.json()).hash).toBe(sha256(bytes));
  });
});

test.describe('owners are isolated', () => {
  test("another owner's entry answers 404, never 403", async ({ request, newOwner }) => {
    const a = await newOwner();
    const b = await newOwner('B');
    const entry = await createEntry(request, a.liveKey);
    for (const res of [
      await request.get(`/silo/v1/entries/${entry.id}`, { headers: bearer(b.liveKey) }),
      await request.patch(`/silo/v1/entries/${entry.id}`, { headers: bearer(b.liveKey), data: { name: 'x' } }),
      await request.delete(`/silo/v1/entries/${entry.id}`, { headers: bearer(b.liveKey) }),
      await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(b.liveKey) }),
      await request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(b.liveKey), data: { name: 'a.txt', data: 'YQ==' } }),
    ])
      await expectError(res, 404, 'not_found');
    const list = await (await request.get('/silo/v1/entries', { headers: bearer(b.liveKey) })).json();
    expect(list.list).toEqual([]);
  });

  test('uploading to an entry that does not exist answers 404, as does a path id that is not a UUID', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    await expectError(
      await request.post(`/silo/v1/entries/${randomUUID()}/files`, { headers: bearer(liveKey), data: { name: 'a', data: b64('a') } }),
      404,
      'not_found',
    );
    await expectError(
      await request.put(`/silo/v1/entries/${randomUUID()}/files/${randomUUID()}`, {
        headers: bearer(liveKey),
        data: { name: 'a', data: b64('a') },
      }),
      404,
      'not_found',
    );
    await expectError(await request.get('/silo/v1/entries/not-a-uuid', { headers: bearer(liveKey) }), 404, 'not_found');
  });
});
