// Workspace and application administration (docs/api.md, Instance administration): enrolling an
// application from the console, renaming workspaces and applications, storage used per workspace.
import type { APIRequestContext } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry, expectError, inlineFile, signIn } from './helpers';

async function newApp(admin: APIRequestContext, trusted = false) {
  const res = await admin.post('/admin/v1/apps', { data: { name: 'Invoicer', trusted } });
  expect(res.status()).toBe(201);
  return res.json();
}

async function newMember(admin: APIRequestContext, ownerIds: string[]) {
  const email = `m-${randomUUID().slice(0, 8)}@example.com`;
  const res = await admin.post('/admin/v1/users', { data: { email, name: 'M', password: 'correct horse battery', owner_ids: ownerIds } });
  expect(res.status(), await res.text()).toBe(201);
  return { email, password: 'correct horse battery' };
}

const NOBODY = '00000000-0000-4000-8000-000000000000';

test.describe('enrolling an application from the console', () => {
  test('an enabled enrollment lets the app authorize with its credentials and owner_id alone', async ({ admin, request, newOwner }) => {
    const owner = await newOwner();
    const other = await newOwner('Other');
    const app = await newApp(admin);
    const authorize = (data: object = {}) =>
      request.post('/access/v1/enrollment/authorize', {
        data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id, ...data },
      });
    await expectError(await authorize(), 403, 'forbidden');

    const res = await admin.post('/admin/v1/enrollments', { data: { app_id: app.id, owner_id: owner.id } });
    expect(res.status(), await res.text()).toBe(201);
    const e = await res.json();
    expect(e).toMatchObject({ app_id: app.id, owner_id: owner.id, sandbox: false, disabled: false });
    expect(e.token).toBeUndefined();

    // The same request again answers the same enrollment, 200.
    const again = await admin.post('/admin/v1/enrollments', { data: { app_id: app.id, owner_id: owner.id, sandbox: false } });
    expect(again.status()).toBe(200);
    expect((await again.json()).id).toBe(e.id);

    const ok = await authorize();
    expect(ok.status(), await ok.text()).toBe(200);
    const token = await ok.json();
    expect(token).toMatchObject({ id: e.id, sandbox: false });
    expect((await request.get('/silo/v1/entries', { headers: bearer(token.token) })).status()).toBe(200);

    // Only that owner, only that environment.
    await expectError(await authorize({ owner_id: other.id }), 403, 'forbidden');
    await expectError(await authorize({ sandbox: true }), 403, 'forbidden');
    const sb = await admin.post('/admin/v1/enrollments', { data: { app_id: app.id, owner_id: owner.id, sandbox: true } });
    expect(sb.status()).toBe(201);
    const sbToken = await (await authorize({ sandbox: true })).json();
    expect(sbToken.sandbox).toBe(true);
    expect(sbToken.id).toBe((await sb.json()).id);

    // Disabled: 403 enrollment_disabled; a repeated POST leaves it disabled; PATCH enables it.
    expect((await admin.patch(`/admin/v1/enrollments/${e.id}`, { data: { disabled: true } })).status()).toBe(200);
    await expectError(await authorize(), 403, 'enrollment_disabled');
    await expectError(await request.get('/silo/v1/entries', { headers: bearer(token.token) }), 403, 'enrollment_disabled');
    const kept = await admin.post('/admin/v1/enrollments', { data: { app_id: app.id, owner_id: owner.id } });
    expect([kept.status(), (await kept.json()).disabled]).toEqual([200, true]);
    await admin.patch(`/admin/v1/enrollments/${e.id}`, { data: { disabled: false } });
    expect((await authorize()).status()).toBe(200);

    // The owner-key consent works as before.
    const consent = await request.post('/access/v1/enrollment/authorize', {
      headers: { 'X-Owner-Key': other.sandboxKey },
      data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: other.id },
    });
    expect([consent.status(), (await consent.json()).sandbox]).toEqual([200, true]);
  });

  test('unknown applications and owners answer 404; bad bodies 422; only administrators may enroll', async ({
    admin,
    newOwner,
    playwright,
    server,
  }) => {
    const owner = await newOwner();
    const app = await newApp(admin);
    await expectError(await admin.post('/admin/v1/enrollments', { data: { app_id: NOBODY, owner_id: owner.id } }), 404, 'not_found');
    await expectError(await admin.post('/admin/v1/enrollments', { data: { app_id: app.id, owner_id: NOBODY } }), 404, 'not_found');
    const bad = await expectError(
      await admin.post('/admin/v1/enrollments', { data: { app_id: 'x', owner_id: owner.id } }),
      422,
      'validation',
    );
    expect(bad.fields?.app_id).toBeTruthy();
    await expectError(await admin.post('/admin/v1/enrollments', { data: { app_id: app.id } }), 422, 'validation');
    await expectError(
      await admin.post('/admin/v1/enrollments', { headers: bearer(owner.liveKey), data: { app_id: app.id, owner_id: owner.id } }),
      403,
      'forbidden',
    );
    const member = await newMember(admin, [owner.id]);
    const ctx = await signIn(playwright, server.url, member.email, member.password);
    await expectError(
      await ctx.post('/admin/v1/enrollments', { headers: { Origin: server.url }, data: { app_id: app.id, owner_id: owner.id } }),
      403,
      'forbidden',
    );
    await ctx.dispose();
    expect((await (await admin.get(`/admin/v1/enrollments?owner_id=${owner.id}`)).json()).list).toEqual([]);
  });
});

test.describe('renaming', () => {
  test('an administrator renames a workspace and an application; members cannot', async ({ admin, newOwner, playwright, server }) => {
    const owner = await newOwner('Old name');
    const app = await newApp(admin);
    const renamed = await admin.patch(`/admin/v1/owners/${owner.id}`, { data: { name: 'New name' } });
    expect(renamed.status(), await renamed.text()).toBe(200);
    const o = await renamed.json();
    expect(o).toMatchObject({ id: owner.id, name: 'New name', usage: { entries: 0, files: 0, bytes: 0 } });
    expect(o.api_keys).toHaveLength(2);
    expect((await (await admin.get(`/admin/v1/owners/${owner.id}`)).json()).name).toBe('New name');
    await expectError(await admin.patch(`/admin/v1/owners/${owner.id}`, { data: { name: '' } }), 422, 'validation');
    await expectError(await admin.patch(`/admin/v1/owners/${owner.id}`, { data: { name: 'x'.repeat(256) } }), 422, 'validation');
    await expectError(await admin.patch(`/admin/v1/owners/${owner.id}`, { data: { name: 'a\u0007b' } }), 422, 'validation');
    await expectError(await admin.patch(`/admin/v1/owners/${NOBODY}`, { data: { name: 'x' } }), 404, 'not_found');

    const a = await admin.patch(`/admin/v1/apps/${app.id}`, { data: { name: 'Billing' } });
    expect(a.status(), await a.text()).toBe(200);
    expect(await a.json()).toMatchObject({ id: app.id, name: 'Billing', trusted: false, client_id: app.client_id });
    expect((await a.json()).client_secret).toBeUndefined();
    expect((await (await admin.patch(`/admin/v1/apps/${app.id}`, { data: { trusted: true } })).json()).trusted).toBe(true);
    await expectError(await admin.patch(`/admin/v1/apps/${app.id}`, { data: {} }), 422, 'validation');
    await expectError(await admin.patch(`/admin/v1/apps/${app.id}`, { data: { name: '' } }), 422, 'validation');
    await expectError(await admin.patch(`/admin/v1/apps/${NOBODY}`, { data: { name: 'x' } }), 404, 'not_found');
    const list = (await (await admin.get('/admin/v1/apps?limit=100')).json()).list;
    expect(list.find((x: { id: string }) => x.id === app.id)).toMatchObject({ name: 'Billing', trusted: true });

    const member = await newMember(admin, [owner.id]);
    const ctx = await signIn(playwright, server.url, member.email, member.password);
    const origin = { Origin: server.url };
    await expectError(await ctx.patch(`/admin/v1/owners/${owner.id}`, { headers: origin, data: { name: 'Mine' } }), 403, 'forbidden');
    await expectError(await ctx.patch(`/admin/v1/apps/${app.id}`, { headers: origin, data: { name: 'Mine' } }), 403, 'forbidden');
    await ctx.dispose();
    expect((await (await admin.get(`/admin/v1/owners/${owner.id}`)).json()).name).toBe('New name');
  });
});

test.describe('storage used', () => {
  test('owners carry their entries, stored file versions and logical bytes; members see their own', async ({
    admin,
    request,
    newOwner,
    playwright,
    server,
  }) => {
    const owner = await newOwner('Used');
    const empty = await newOwner('Empty');
    const a = await createEntry(request, owner.liveKey, { name: 'a' });
    const b = await createEntry(request, owner.sandboxKey, { name: 'b' });
    await createEntry(request, owner.liveKey, { name: 'c' });
    await inlineFile(request, owner.liveKey, a.id, { name: 'x.txt', data: b64('hello') }); // 5
    await inlineFile(request, owner.liveKey, a.id, { name: 'x.txt', data: b64('hello world') }); // 11, a new version
    await inlineFile(request, owner.sandboxKey, b.id, { name: 'y.txt', data: b64('hello') }); // 5, same bytes
    // A placeholder holds no bytes yet: not counted.
    const ph = await request.post(`/silo/v1/entries/${a.id}/files`, {
      headers: bearer(owner.liveKey),
      data: { name: 'big.bin', mime: 'application/octet-stream', sha256: 'a'.repeat(64), size: 1000 },
    });
    expect(ph.status()).toBe(201);

    const expected = { entries: 3, files: 3, bytes: 21 };
    expect((await (await admin.get(`/admin/v1/owners/${owner.id}`)).json()).usage).toEqual(expected);
    const list = (await (await admin.get('/admin/v1/owners?limit=100')).json()).list as { id: string; usage: unknown }[];
    expect(list.find((o) => o.id === owner.id)?.usage).toEqual(expected);
    expect(list.find((o) => o.id === empty.id)?.usage).toEqual({ entries: 0, files: 0, bytes: 0 });

    const member = await newMember(admin, [owner.id]);
    const ctx = await signIn(playwright, server.url, member.email, member.password);
    const mine = (await (await ctx.get('/admin/v1/owners')).json()).list;
    expect(mine).toEqual([expect.objectContaining({ id: owner.id, usage: expected })]);
    expect((await (await ctx.get(`/admin/v1/owners/${owner.id}`)).json()).usage).toEqual(expected);
    await ctx.dispose();
  });
});
