// Contract §3: entries, keyset pagination, idempotent PUT, isolation between owners.
import { randomUUID } from 'node:crypto';
import { bearer, expect, test } from '../fixtures';
import { createEntry, expectError } from './helpers';

test('create, get, patch and delete an entry', async ({ request, newOwner }) => {
  const { liveKey } = await newOwner();
  const res = await request.post('/silo/v1/entries', { headers: bearer(liveKey), data: { name: 'Invoice 1', folder: 'sales', key: 'INV-1', meta: { erp: 'x' } } });
  expect(res.status()).toBe(201);
  const entry = await res.json();
  expect(res.headers()['location']).toBe(`/silo/v1/entries/${entry.id}`);
  expect(entry).toMatchObject({ name: 'Invoice 1', folder: 'sales', key: 'INV-1', meta: { erp: 'x' }, sandbox: false });
  const got = await (await request.get(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey) })).json();
  expect(got.attachments).toEqual([]);
  const patched = await request.patch(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey), data: { folder: 'archive' } });
  expect((await patched.json()).folder).toBe('archive');
  expect((await request.delete(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey) })).status()).toBe(204);
  await expectError(await request.get(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey) }), 404, 'not_found');
});

test('keys are unique per owner and environment', async ({ request, newOwner }) => {
  const a = await newOwner();
  const b = await newOwner('B');
  await createEntry(request, a.liveKey, { key: 'K1' });
  await expectError(await request.post('/silo/v1/entries', { headers: bearer(a.liveKey), data: { key: 'K1' } }), 409, 'conflict');
  await createEntry(request, a.sandboxKey, { key: 'K1' });
  await createEntry(request, b.liveKey, { key: 'K1' });
});

test('PUT with the caller id: 201, the same again 200, other values 409', async ({ request, newOwner }) => {
  const { liveKey } = await newOwner();
  const id = randomUUID();
  const put = (data: object) => request.put(`/silo/v1/entries/${id}`, { headers: bearer(liveKey), data });
  expect((await put({ name: 'A' })).status()).toBe(201);
  expect((await put({ name: 'A' })).status()).toBe(200);
  await expectError(await put({ name: 'B' }), 409, 'conflict');
});

test('lists newest first with keyset pages, filtered by folder and key', async ({ request, newOwner }) => {
  const { liveKey } = await newOwner();
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) ids.push((await createEntry(request, liveKey, { name: `e${i}`, folder: i % 2 ? 'odd' : 'even', key: `k${i}` })).id);
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
