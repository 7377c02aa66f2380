// Finding entries (docs/api.md, Entries): ?folder= takes a folder's subtree, ?folder_exact= one
// folder, ?q= searches names, keys and file names (LIKE characters literal), file_count, and
// GET /silo/v1/folders — for keys and for a console session naming the workspace.
import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, inlineFile, sha256, signIn } from './helpers';

type Rec = { id: string; name: string; folder: string; file_count: number };

async function all(request: APIRequestContext, key: string, query: string, limit = 2) {
  const seen: Rec[] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await request.get(`/silo/v1/entries?limit=${limit}&${query}${cursor ? `&cursor=${cursor}` : ''}`, { headers: bearer(key) });
    expect(res.status(), await res.text()).toBe(200);
    const page = await res.json();
    seen.push(...page.list);
    if (!page.next_cursor) return seen;
    cursor = page.next_cursor;
  }
}

const names = (l: Rec[]) => l.map((e) => e.name);

test.describe('folders', () => {
  test('?folder= matches the folder and everything below it, not a folder that merely starts alike; ?folder_exact= one folder', async ({
    request,
    newOwner,
  }) => {
    const { liveKey, sandboxKey } = await newOwner();
    for (const [name, folder] of [
      ['root', ''],
      ['s', 'sales'],
      ['s26', 'sales/2026'],
      ['s26q1', 'sales/2026/q1'],
      ['sf', 'salesforce'],
      ['p', 'purchases'],
    ])
      await createEntry(request, liveKey, { name, folder });
    await createEntry(request, sandboxKey, { name: 'sandboxed', folder: 'sales' });
    expect(names(await all(request, liveKey, 'folder=sales'))).toEqual(['s26q1', 's26', 's']);
    expect(names(await all(request, liveKey, 'folder=sales%2F2026'))).toEqual(['s26q1', 's26']);
    expect(names(await all(request, liveKey, 'folder=sale'))).toEqual([]);
    expect(names(await all(request, liveKey, 'folder='))).toHaveLength(6);
    expect(names(await all(request, liveKey, 'folder_exact=sales'))).toEqual(['s']);
    expect(names(await all(request, liveKey, 'folder_exact='))).toEqual(['root']);
    expect(names(await all(request, sandboxKey, 'folder=sales'))).toEqual(['sandboxed']);
    await expectError(await request.get('/silo/v1/entries?folder=a&folder_exact=a', { headers: bearer(liveKey) }), 422, 'validation');

    // A PATCH moves the entry out of (and into) the subtree at once; a DELETE takes it away.
    const moved = (await all(request, liveKey, 'folder_exact=purchases'))[0];
    const patched = await request.patch(`/silo/v1/entries/${moved.id}`, { headers: bearer(liveKey), data: { folder: 'sales/returns' } });
    expect(patched.status()).toBe(200);
    expect(names(await all(request, liveKey, 'folder=sales'))).toEqual(['p', 's26q1', 's26', 's']);
    const s26 = (await all(request, liveKey, 'folder_exact=sales%2F2026'))[0];
    expect((await request.delete(`/silo/v1/entries/${s26.id}`, { headers: bearer(liveKey) })).status()).toBe(204);

    const folders = await request.get('/silo/v1/folders', { headers: bearer(liveKey) });
    expect(folders.status()).toBe(200);
    expect(await folders.json()).toEqual({
      list: [
        { folder: 'sales', entries: 3, subfolders: true },
        { folder: 'sales/2026', entries: 1, subfolders: true },
        { folder: 'sales/2026/q1', entries: 1, subfolders: false },
        { folder: 'sales/returns', entries: 1, subfolders: false },
        { folder: 'salesforce', entries: 1, subfolders: false },
      ],
      limit: 20,
    });
    // Keyset pages, and one level at a time.
    const folderPage = async (query: string) => (await request.get(`/silo/v1/folders?${query}`, { headers: bearer(liveKey) })).json();
    const first = await folderPage('limit=2');
    expect(first.list.map((f: { folder: string }) => f.folder)).toEqual(['sales', 'sales/2026']);
    const second = await folderPage(`limit=2&cursor=${first.next_cursor}`);
    expect(second.list.map((f: { folder: string }) => f.folder)).toEqual(['sales/2026/q1', 'sales/returns']);
    const third = await folderPage(`limit=2&cursor=${second.next_cursor}`);
    expect(third.list.map((f: { folder: string }) => f.folder)).toEqual(['salesforce']);
    expect(third.next_cursor).toBeUndefined();
    expect((await folderPage('parent=')).list.map((f: { folder: string }) => f.folder)).toEqual(['sales', 'salesforce']);
    expect((await folderPage('parent=sales')).list.map((f: { folder: string }) => f.folder)).toEqual(['sales/2026', 'sales/returns']);
    expect((await folderPage('parent=sales%2F2026%2Fq1')).list).toEqual([]);
    await expectError(await request.get('/silo/v1/folders?cursor=nope', { headers: bearer(liveKey) }), 422, 'validation');
    await expectError(await request.get('/silo/v1/folders?limit=0', { headers: bearer(liveKey) }), 422, 'validation');
    expect(await (await request.get('/silo/v1/folders', { headers: bearer(sandboxKey) })).json()).toEqual({
      list: [{ folder: 'sales', entries: 1, subfolders: false }],
      limit: 20,
    });
    await expectError(await request.get('/silo/v1/folders'), 401, 'unauthorized');
  });

  test('a console session lists the folders and searches the entries of the workspace it names', async ({
    admin,
    request,
    newOwner,
    playwright,
    server,
  }) => {
    const a = await newOwner();
    const b = await newOwner();
    await createEntry(request, a.liveKey, { name: 'Invoice', folder: 'x/y' });
    await createEntry(request, b.liveKey, { name: 'Invoice', folder: 'other' });
    const password = 'correct horse battery';
    const email = `member-${randomUUID().slice(0, 8)}@example.com`;
    const user = await admin.post('/admin/v1/users', { data: { email, password, admin: false, owner_ids: [a.id] } });
    expect(user.status(), await user.text()).toBe(201);
    const session = await signIn(playwright, server.url, email, password);
    const folders = await session.get('/silo/v1/folders', { headers: { 'X-Silo-Owner': a.id } });
    expect(await folders.json()).toEqual({
      list: [
        { folder: 'x', entries: 1, subfolders: true },
        { folder: 'x/y', entries: 1, subfolders: false },
      ],
      limit: 20,
    });
    expect(
      (await (await session.get('/silo/v1/folders', { headers: { 'X-Silo-Owner': a.id, 'X-Silo-Sandbox': 'true' } })).json()).list,
    ).toEqual([]);
    await expectError(await session.get('/silo/v1/folders', { headers: { 'X-Silo-Owner': b.id } }), 404, 'not_found');
    await expectError(await session.get('/silo/v1/folders'), 400, 'bad_request');
    const found = await (await session.get('/silo/v1/entries?q=voice&folder=x', { headers: { 'X-Silo-Owner': a.id } })).json();
    expect(found.list.map((e: Rec) => e.name)).toEqual(['Invoice']);
    await session.dispose();
  });
});

test.describe('search', () => {
  test('?q= matches name, key or a current file name, ignoring case; % _ and \\ are plain characters', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const specs: [string, string | undefined][] = [
      ['Invoice 100% paid', 'INV-1'],
      ['Invoice 100 paid', 'inv_2'],
      ['Receipt', 'R\\3'],
      ['Receipt x', undefined],
      ['Contract', 'C-4'],
    ];
    const made: Rec[] = [];
    for (const [name, key] of specs) made.push((await createEntry(request, liveKey, { name, ...(key ? { key } : {}) })) as unknown as Rec);
    await inlineFile(request, liveKey, made[4].id, {
      name: 'Scan_Signed.PDF',
      mime: 'application/pdf',
      data: b64('x'),
      sha256: sha256('x'),
    });
    const q = async (s: string, extra = '') => names(await all(request, liveKey, `q=${encodeURIComponent(s)}${extra}`, 1));
    expect(await q('invoice')).toEqual(['Invoice 100 paid', 'Invoice 100% paid']);
    expect(await q('100%')).toEqual(['Invoice 100% paid']);
    expect(await q('%')).toEqual(['Invoice 100% paid']);
    expect(await q('_')).toEqual(['Contract', 'Invoice 100 paid']);
    expect(await q('\\')).toEqual(['Receipt']);
    expect(await q('r\\3')).toEqual(['Receipt']);
    expect(await q('inv-')).toEqual(['Invoice 100% paid']);
    expect(await q('signed.pdf')).toEqual(['Contract']);
    expect(await q('n_s')).toEqual(['Contract']);
    expect(await q('nothing')).toEqual([]);
    expect(await q('receipt', '&folder=none')).toEqual([]);
    const longest = 'x'.repeat(255);
    expect(await q(longest)).toEqual([]);
    for (const bad of ['', 'x'.repeat(256), '\u0001'])
      await expectError(
        await request.get(`/silo/v1/entries?q=${encodeURIComponent(bad)}`, { headers: bearer(liveKey) }),
        422,
        'validation',
      );
  });
});

test.describe('file_count', () => {
  test('file_count counts current files and placeholders, one per file, in lists and on each entry', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const e = await createEntry(request, liveKey, { name: 'counted' });
    expect(e.file_count).toBe(0);
    const body = (n: string, s: string) => ({ name: n, mime: 'text/plain', data: b64(s), sha256: sha256(s) });
    await inlineFile(request, liveKey, e.id, body('a.txt', 'a'));
    await inlineFile(request, liveKey, e.id, body('a.txt', 'a2')); // a new version of the same file
    await inlineFile(request, liveKey, e.id, body('b.txt', 'b'));
    const placeholder = await request.post(`/silo/v1/entries/${e.id}/files`, {
      headers: bearer(liveKey),
      data: { name: 'c.bin', mime: 'application/octet-stream', size: 3, sha256: sha256('ccc') },
    });
    expect(placeholder.status(), await placeholder.text()).toBe(201);
    const one = await (await request.get(`/silo/v1/entries/${e.id}`, { headers: bearer(liveKey) })).json();
    expect(one.attachments).toHaveLength(3);
    expect(one.file_count).toBe(3);
    const listed = (await all(request, liveKey, 'q=counted'))[0];
    expect(listed.file_count).toBe(3);
    const patched = await (
      await request.patch(`/silo/v1/entries/${e.id}`, { headers: bearer(liveKey), data: { name: 'counted!' } })
    ).json();
    expect(patched.file_count).toBe(3);
  });
});
