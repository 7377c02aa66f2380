// Who made each version (docs/api.md, Versions): created_by for an owner key, an enrollment token,
// a console user and an administrator, kept through a placeholder's upload; restored_from on a restore.
import type { APIRequestContext } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, inlineFile, sha256, signIn } from './helpers';

async function newUser(admin: APIRequestContext, data: { admin?: boolean; owner_ids?: string[]; name?: string }) {
  const email = `u-${randomUUID().slice(0, 8)}@example.com`;
  const res = await admin.post('/admin/v1/users', { data: { email, name: '', password: 'correct horse battery', ...data } });
  expect(res.status(), await res.text()).toBe(201);
  return { id: (await res.json()).id as string, email, password: 'correct horse battery' };
}

test('an owner key, an enrollment token and console users are recorded as each version is made', async ({
  admin,
  request,
  newOwner,
  playwright,
  server,
}) => {
  const owner = await newOwner('Authors');
  const key = (await (await admin.get(`/admin/v1/owners/${owner.id}`)).json()).api_keys.find((k: { sandbox: boolean }) => !k.sandbox);
  const entry = await createEntry(request, owner.liveKey, { name: 'authored' });
  const files = `/silo/v1/entries/${entry.id}/files`;

  // v1: the owner key, as its id and the prefix the admin API lists
  const v1 = await inlineFile(request, owner.liveKey, entry.id, { name: 'inv.xml', data: b64('<a>1</a>'), desc: 'first' });
  expect(v1.created_by).toEqual({ type: 'owner_key', id: key.id, name: key.prefix });
  expect(v1).toMatchObject({ version: 1, restored_from: null });

  // v2: an enrollment token, through a placeholder completed at its url (no credentials there)
  const app = await (await admin.post('/admin/v1/apps', { data: { name: 'Invoicer' } })).json();
  const auth = await request.post('/access/v1/enrollment/authorize', {
    headers: { 'X-Owner-Key': owner.liveKey },
    data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
  });
  const { token } = await auth.json();
  const bytes = '<a>2</a>';
  const p = await request.post(files, {
    headers: bearer(token),
    data: { name: 'inv.xml', mime: 'application/xml', size: bytes.length, sha256: sha256(bytes) },
  });
  expect(p.status()).toBe(201);
  const placeholder = await p.json();
  expect(placeholder.created_by).toEqual({ type: 'app', id: app.id, name: 'Invoicer' });
  const put = await request.put(placeholder.url, { data: bytes, headers: { 'Content-Type': 'application/xml' } });
  expect(put.status(), await put.text()).toBe(200);
  // the url alone is told no author (issue 20, item 4: url-answers.spec.ts); the workspace sees the placeholder's
  expect((await put.json()).created_by).toBeUndefined();
  const uploaded = await request.get(`${files}`, { headers: bearer(token) });
  expect((await uploaded.json()).list.find((f: { id: string }) => f.id === placeholder.id).created_by).toEqual({
    type: 'app',
    id: app.id,
    name: 'Invoicer',
  });

  // v3: a console member (named) restores v1; v4: an administrator without a name (their email)
  const member = await newUser(admin, { owner_ids: [owner.id], name: 'Mia Member' });
  const ctx = await signIn(playwright, server.url, member.email, member.password);
  const restored = await ctx.post(`${files}/${v1.id}/restore`, { headers: { Origin: server.url } });
  expect(restored.status(), await restored.text()).toBe(201);
  const v3 = await restored.json();
  expect(v3).toMatchObject({
    version: 3,
    hash: v1.hash,
    desc: 'first',
    created_by: { type: 'user', id: member.id, name: 'Mia Member' },
    restored_from: { id: v1.id, version: 1 },
  });
  const boss = await newUser(admin, { admin: true });
  const bossCtx = await signIn(playwright, server.url, boss.email, boss.password);
  const made = await bossCtx.post(files, { headers: { Origin: server.url }, data: { name: 'inv.xml', data: b64('<a>4</a>') } });
  expect(made.status(), await made.text()).toBe(201);
  const v4 = await made.json();
  expect(v4.created_by).toEqual({ type: 'admin', id: boss.id, name: boss.email });

  // The history tells the story, and a rename later does not rewrite it.
  const renamed = await admin.patch(`/admin/v1/apps/${app.id}`, { data: { name: 'Invoicer 2' } });
  const list = await (await request.get(files, { headers: bearer(owner.liveKey) })).json();
  const current = list.list.find((f: { id: string }) => f.id === v4.id);
  expect(
    current.previous.map((v: { version: number; created_by: { type: string; name: string }; restored_from: unknown }) => [
      v.version,
      v.created_by.type,
      v.created_by.name,
      v.restored_from,
    ]),
  ).toEqual([
    [3, 'user', 'Mia Member', { id: v1.id, version: 1 }],
    [2, 'app', 'Invoicer', null],
    [1, 'owner_key', key.prefix, null],
  ]);
  if (renamed.ok()) expect(JSON.stringify(current)).not.toContain('Invoicer 2');
  // never a secret
  const all = JSON.stringify(list);
  for (const secret of [owner.liveKey, token, app.client_secret]) expect(all).not.toContain(secret);
  await ctx.dispose();
  await bossCtx.dispose();
});
