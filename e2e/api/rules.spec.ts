// Contract rules that the other specs do not already pin, one test each.
import { randomUUID } from 'node:crypto';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, inlineFile, sha256 } from './helpers';

test('a fresh instance prints a one-time setup link', async ({ server }) => {
  expect(server.output()).toMatch(/One-time setup link \(creates the first admin\): http:\/\/\S+\/setup\?token=[A-Za-z0-9_-]{20,}/);
});

test('uploading to an entry that does not exist answers 404', async ({ request, newOwner }) => {
  const { liveKey } = await newOwner();
  await expectError(await request.post(`/silo/v1/entries/${randomUUID()}/files`, { headers: bearer(liveKey), data: { name: 'a', data: b64('a') } }), 404, 'not_found');
  await expectError(await request.put(`/silo/v1/entries/${randomUUID()}/files/${randomUUID()}`, { headers: bearer(liveKey), data: { name: 'a', data: b64('a') } }), 404, 'not_found');
  await expectError(await request.get('/silo/v1/entries/not-a-uuid', { headers: bearer(liveKey) }), 404, 'not_found');
});

test('ids in paths are case-insensitive and answered in lowercase; sha256 is kept lowercase', async ({ request, newOwner }) => {
  const { liveKey } = await newOwner();
  const entry = await createEntry(request, liveKey);
  const got = await request.get(`/silo/v1/entries/${entry.id.toUpperCase()}`, { headers: bearer(liveKey) });
  expect((await got.json()).id).toBe(entry.id);
  const bytes = Buffer.from('case');
  const p = await request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data: { name: 'c', mime: 'text/plain', sha256: sha256(bytes).toUpperCase(), size: 4 } });
  expect((await p.json()).hash).toBe(sha256(bytes));
});

test('text limits: key 255, desc 1024, entry name 255', async ({ request, newOwner }) => {
  const { liveKey } = await newOwner();
  const entry = await createEntry(request, liveKey);
  const post = (data: object) => request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data: { name: 'a', data: b64('a'), ...data } });
  expect((await post({ key: 'k'.repeat(255), desc: 'd'.repeat(1024) })).status()).toBe(201);
  await expectError(await post({ key: 'k'.repeat(256) }), 422, 'validation');
  await expectError(await post({ desc: 'd'.repeat(1025) }), 422, 'validation');
  await expectError(await request.post('/silo/v1/entries', { headers: bearer(liveKey), data: { name: 'n'.repeat(256) } }), 422, 'validation');
});

test('an enrollment token acts as its owner everywhere, private files included', async ({ admin, request, newOwner }) => {
  const owner = await newOwner();
  const app = await (await admin.post('/admin/v1/apps', { data: { name: 'T', trusted: true } })).json();
  const { token } = await (await request.post('/access/v1/enrollment/authorize', { data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id } })).json();
  const entry = await createEntry(request, owner.liveKey);
  const priv = await inlineFile(request, owner.liveKey, entry.id, { name: 'p.txt', data: b64('private'), private: true });
  expect(await (await request.get(priv.url, { headers: bearer(token) })).text()).toBe('private');
  expect(await (await request.get(`/silo/v1/entries/${entry.id}/files/${priv.id}`, { headers: bearer(token) })).text()).toBe('private');
});

test("authorize by id only reaches the application's own enrollments", async ({ admin, request, newOwner }) => {
  const owner = await newOwner();
  const mk = async () => (await admin.post('/admin/v1/apps', { data: { name: 'X', trusted: true } })).json();
  const [a, b] = [await mk(), await mk()];
  const ea = await (await request.post('/access/v1/enrollment/authorize', { data: { client_id: a.client_id, client_secret: a.client_secret, owner_id: owner.id } })).json();
  await expectError(await request.post('/access/v1/enrollment/authorize', { data: { client_id: b.client_id, client_secret: b.client_secret, id: ea.id } }), 404, 'not_found');
});

test('keys, secrets and tokens are never stored as given', async ({ admin, request, newOwner, server }) => {
  const owner = await newOwner();
  const app = await (await admin.post('/admin/v1/apps', { data: { name: 'S', trusted: true } })).json();
  const { token } = await (await request.post('/access/v1/enrollment/authorize', { data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id } })).json();
  // The embedded database keeps its pages under the data directory: none may contain a secret.
  const { readdir, readFile } = await import('node:fs/promises');
  const path = await import('node:path');
  test.skip(!!process.env.DATABASE_URL || !(await readdir(server.dataDir)).includes('db'), 'embedded database only');
  const files: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) e.isDirectory() ? await walk(path.join(d, e.name)) : files.push(path.join(d, e.name));
  };
  await walk(path.join(server.dataDir, 'db'));
  const secrets = [owner.liveKey, owner.sandboxKey, app.client_secret, token].map((s) => Buffer.from(s));
  let hashFound = false;
  for (const f of files) {
    const bytes = await readFile(f);
    for (const s of secrets) expect(bytes.includes(s), `${s} in ${f}`).toBe(false);
    hashFound ||= bytes.includes(Buffer.from(sha256(owner.liveKey)));
  }
  // The control: what is stored (the key's sha256) is on disk, so the search above was real.
  expect(hashFound).toBe(true);
});
