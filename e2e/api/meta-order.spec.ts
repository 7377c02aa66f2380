// Issue 20, item 15: `meta` keeps the order its keys were written in (docs/api.md, Meta), through
// create, change and every read, for entries and files, on both databases. jsonb would hand the
// keys back shortest first.
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, inlineFile, sha256 } from './helpers';

// Written in an order jsonb would not keep (it sorts keys by length, then bytes).
const WRITTEN = { zeta: '1', a: '2', 'middle key': '3', mm: '4' };
const CHANGED = { 'last first': 'x', b: 'y', aa: 'z' };
const keysOf = (meta: Record<string, string>) => Object.keys(meta);

test('an entry’s meta comes back in the order it was written, after POST, PATCH and on every read', async ({ request, newOwner }) => {
  const { liveKey } = await newOwner();
  const entry = await createEntry(request, liveKey, { name: 'Ordered', key: `order-${Date.now()}`, meta: WRITTEN });
  expect(keysOf(entry.meta as Record<string, string>)).toEqual(keysOf(WRITTEN));
  const read = async () => (await (await request.get(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey) })).json()).meta;
  expect(keysOf(await read())).toEqual(keysOf(WRITTEN));
  expect(await read()).toEqual(WRITTEN);
  const listed = await (await request.get('/silo/v1/entries', { headers: bearer(liveKey) })).json();
  expect(keysOf(listed.list.find((e: { id: string }) => e.id === entry.id).meta)).toEqual(keysOf(WRITTEN));

  const patched = await request.patch(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey), data: { meta: CHANGED } });
  expect(patched.status(), await patched.text()).toBe(200);
  expect(keysOf((await patched.json()).meta)).toEqual(keysOf(CHANGED));
  expect(keysOf(await read())).toEqual(keysOf(CHANGED));
});

test('a file’s meta comes back in the order it was written, after POST, PATCH, a new version and on every read', async ({
  request,
  newOwner,
}) => {
  const { liveKey } = await newOwner();
  const entry = await createEntry(request, liveKey, { name: 'With a file' });
  const file = await inlineFile(request, liveKey, entry.id, {
    name: 'a.txt',
    mime: 'text/plain',
    data: b64('a'),
    sha256: sha256('a'),
    meta: WRITTEN,
  });
  expect(keysOf(file.meta)).toEqual(keysOf(WRITTEN));
  const listed = async () => {
    const res = await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) });
    expect(res.status()).toBe(200);
    return (await res.json()).list[0];
  };
  expect(keysOf((await listed()).meta)).toEqual(keysOf(WRITTEN));
  const inEntry = await (await request.get(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey) })).json();
  expect(keysOf(inEntry.attachments[0].meta)).toEqual(keysOf(WRITTEN));

  const patched = await request.patch(`/silo/v1/entries/${entry.id}/files/${file.id}`, {
    headers: bearer(liveKey),
    data: { meta: CHANGED },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  expect(keysOf((await patched.json()).meta)).toEqual(keysOf(CHANGED));
  expect(keysOf((await listed()).meta)).toEqual(keysOf(CHANGED));

  // A new version of it (same name) and a placeholder keep theirs too.
  const v2 = await inlineFile(request, liveKey, entry.id, {
    name: 'a.txt',
    mime: 'text/plain',
    data: b64('b'),
    sha256: sha256('b'),
    meta: WRITTEN,
  });
  expect(keysOf(v2.meta)).toEqual(keysOf(WRITTEN));
  expect(keysOf((await listed()).meta)).toEqual(keysOf(WRITTEN));
  const placeholder = await inlineFile(request, liveKey, entry.id, {
    name: 'b.txt',
    mime: 'text/plain',
    size: 1,
    sha256: sha256('c'),
    meta: CHANGED,
  });
  expect(placeholder.stored).toBe(false);
  expect(keysOf(placeholder.meta)).toEqual(keysOf(CHANGED));
});
