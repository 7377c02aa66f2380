// Links to a version (docs/api.md, Links): GET/HEAD without credentials until they expire, private
// files included; never PUT; altered or revoked (rotation) links are forbidden; validation; a
// deleted file's links are gone; a placeholder's answer 409 like its url; a console session too.
import type { APIRequestContext } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, inlineFile, sha256, signIn } from './helpers';

async function link(request: APIRequestContext, key: string, entryId: string, fileId: string, expiresIn: number) {
  const res = await request.post(`/silo/v1/entries/${entryId}/files/${fileId}/links`, {
    headers: bearer(key),
    data: { expires_in: expiresIn },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { url: string; expires_at: string };
}

/** A client with no credentials and no cookies. */
async function stranger(playwright: { request: { newContext(): Promise<APIRequestContext> } }) {
  return playwright.request.newContext();
}

test('a link serves its version without credentials, private files included, GET and HEAD only', async ({
  request,
  newOwner,
  playwright,
}) => {
  const owner = await newOwner();
  const entry = await createEntry(request, owner.liveKey, { name: 'linked' });
  const v1 = await inlineFile(request, owner.liveKey, entry.id, { name: 'secret.txt', data: b64('version one'), private: true });
  const v2 = await inlineFile(request, owner.liveKey, entry.id, { name: 'secret.txt', data: b64('version two!'), private: true });
  const anon = await stranger(playwright);
  // the private file's url alone is not enough
  await expectError(await anon.get(v1.url), 401, 'unauthorized');

  const before = Date.now();
  const l = await link(request, owner.liveKey, entry.id, v1.id, 3600);
  expect(l.url).toMatch(/^http:\/\/[^/]+\/silo\/v1\/files\//);
  const expires = Date.parse(l.expires_at);
  expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
  expect(expires).toBeLessThanOrEqual(Date.now() + 3601_000);

  const got = await anon.get(l.url);
  expect(got.status()).toBe(200);
  expect((await got.body()).toString()).toBe('version one'); // that version, not the current one
  expect(got.headers()['content-length']).toBe('11');
  const head = await anon.head(l.url);
  expect(head.status()).toBe(200);
  expect(head.headers()['content-length']).toBe('11');
  expect(head.headers().etag).toContain(sha256('version one'));
  const ranged = await anon.get(l.url, { headers: { Range: 'bytes=0-6' } });
  expect(ranged.status()).toBe(206);
  expect((await ranged.body()).toString()).toBe('version');

  // a link reads; it never writes
  await expectError(await anon.put(l.url, { data: 'version one' }), 403, 'forbidden');
  await expectError(await request.put(l.url, { data: 'version one', headers: bearer(owner.liveKey) }), 403, 'forbidden');
  // altered: signature, expiry, or no expiry
  await expectError(await anon.get(l.url.replace(/link=(.)/, (_, c) => `link=${c === 'A' ? 'B' : 'A'}`)), 403, 'forbidden');
  await expectError(await anon.get(l.url.replace(/expires=(\d+)/, (_, n) => `expires=${Number(n) + 86400}`)), 403, 'forbidden');
  await expectError(await anon.get(l.url.replace(/expires=\d+&/, '')), 403, 'forbidden');
  const other = await link(request, owner.liveKey, entry.id, v2.id, 60);
  await expectError(await anon.get(l.url.replace(v1.id, v2.id)), 403, 'forbidden');
  expect((await (await anon.get(other.url)).body()).toString()).toBe('version two!');
  await anon.dispose();
});

test('a link expires: 403 link_expired', async ({ request, newOwner, playwright }) => {
  const owner = await newOwner();
  const entry = await createEntry(request, owner.liveKey, { name: 'short' });
  const file = await inlineFile(request, owner.liveKey, entry.id, { name: 'a.txt', data: b64('brief') });
  const l = await link(request, owner.liveKey, entry.id, file.id, 1);
  const anon = await stranger(playwright);
  await expect.poll(async () => (await anon.get(l.url)).status(), { timeout: 5_000, intervals: [250] }).toBe(403);
  const body = await expectError(await anon.get(l.url), 403, 'link_expired');
  expect(body.message).toContain(l.expires_at);
  expect((await anon.head(l.url)).status()).toBe(403);
  await anon.dispose();
});

test('revoking rotates: every earlier link of that version is forbidden, new ones work; deleting the file ends them', async ({
  request,
  newOwner,
  playwright,
}) => {
  const owner = await newOwner();
  const entry = await createEntry(request, owner.liveKey, { name: 'revoked' });
  const file = await inlineFile(request, owner.liveKey, entry.id, { name: 'r.txt', data: b64('revocable') });
  const sibling = await inlineFile(request, owner.liveKey, entry.id, { name: 's.txt', data: b64('sibling') });
  const a = await link(request, owner.liveKey, entry.id, file.id, 600);
  const b = await link(request, owner.liveKey, entry.id, file.id, 6000);
  const s = await link(request, owner.liveKey, entry.id, sibling.id, 600);
  const anon = await stranger(playwright);
  expect((await anon.get(a.url)).status()).toBe(200);
  const revoke = await request.delete(`/silo/v1/entries/${entry.id}/files/${file.id}/links`, { headers: bearer(owner.liveKey) });
  expect(revoke.status()).toBe(204);
  await expectError(await anon.get(a.url), 403, 'forbidden');
  await expectError(await anon.get(b.url), 403, 'forbidden');
  expect((await anon.get(s.url)).status()).toBe(200); // another version's links are untouched
  // the file's own url is not a link: it still works
  expect((await anon.get(file.url)).status()).toBe(200);
  const c = await link(request, owner.liveKey, entry.id, file.id, 600);
  expect((await (await anon.get(c.url)).body()).toString()).toBe('revocable');

  const del = await request.delete(`/silo/v1/entries/${entry.id}/files/${file.id}`, { headers: bearer(owner.liveKey) });
  expect(del.status()).toBe(204);
  await expectError(await anon.get(c.url), 404, 'not_found');
  await expectError(
    await request.post(`/silo/v1/entries/${entry.id}/files/${file.id}/links`, { headers: bearer(owner.liveKey), data: { expires_in: 60 } }),
    404,
    'not_found',
  );
  await expectError(await request.delete(`/silo/v1/entries/${entry.id}/files/${file.id}/links`, { headers: bearer(owner.liveKey) }), 404);
  await anon.dispose();
});

test('expires_in is an integer from 1 to 604800; other owners, no credentials and placeholders', async ({
  request,
  newOwner,
  playwright,
  admin,
  server,
}) => {
  const owner = await newOwner();
  const other = await newOwner('Other');
  const entry = await createEntry(request, owner.liveKey, { name: 'checked' });
  const file = await inlineFile(request, owner.liveKey, entry.id, { name: 'v.txt', data: b64('valid') });
  const path = `/silo/v1/entries/${entry.id}/files/${file.id}/links`;
  for (const expires_in of [0, -1, 604801, 1.5, '60', null]) {
    const body = await expectError(await request.post(path, { headers: bearer(owner.liveKey), data: { expires_in } }), 422, 'validation');
    expect(body.fields?.expires_in).toBeTruthy();
  }
  await expectError(await request.post(path, { headers: bearer(owner.liveKey), data: {} }), 422, 'validation');
  const max = await link(request, owner.liveKey, entry.id, file.id, 604800);
  expect(Date.parse(max.expires_at) - Date.now()).toBeGreaterThan(604800_000 - 60_000);
  await expectError(await request.post(path, { headers: bearer(other.liveKey), data: { expires_in: 60 } }), 404, 'not_found');
  await expectError(await request.post(path, { data: { expires_in: 60 } }), 401, 'unauthorized');
  await expectError(await request.delete(path, { headers: bearer(other.liveKey) }), 404, 'not_found');
  // a sandbox key does not see the live entry
  await expectError(await request.post(path, { headers: bearer(owner.sandboxKey), data: { expires_in: 60 } }), 404, 'not_found');

  // a placeholder: its link exists, and answers 409 not_stored as its url does
  const p = await request.post(`/silo/v1/entries/${entry.id}/files`, {
    headers: bearer(owner.liveKey),
    data: { name: 'later.bin', mime: 'application/octet-stream', size: 4, sha256: sha256('late') },
  });
  const placeholder = await p.json();
  const pl = await link(request, owner.liveKey, entry.id, placeholder.id, 60);
  const anon = await stranger(playwright);
  await expectError(await anon.get(pl.url), 409, 'not_stored');
  await expectError(await anon.put(pl.url, { data: 'late' }), 403, 'forbidden');

  // a console session: same-origin for both methods
  const email = `u-${randomUUID().slice(0, 8)}@example.com`;
  expect(
    (await admin.post('/admin/v1/users', { data: { email, password: 'correct horse battery', owner_ids: [owner.id] } })).status(),
  ).toBe(201);
  const ctx = await signIn(playwright, server.url, email, 'correct horse battery');
  await expectError(await ctx.post(path, { data: { expires_in: 60 } }), 403, 'forbidden');
  const made = await ctx.post(path, { headers: { Origin: server.url }, data: { expires_in: 60 } });
  expect(made.status()).toBe(201);
  expect((await (await anon.get((await made.json()).url)).body()).toString()).toBe('valid');
  await expectError(await ctx.delete(path), 403, 'forbidden');
  expect((await ctx.delete(path, { headers: { Origin: server.url } })).status()).toBe(204);
  await ctx.dispose();
  await anon.dispose();
});
