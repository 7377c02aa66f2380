// Credentials (docs/api.md, Credentials, Authorize): the admin API, POST /access/v1/enrollment/authorize,
// and how keys, secrets and tokens are checked and stored.
import { bearer, expect, test } from '../fixtures';
import { expectError, sha256 } from './helpers';

test.describe('the admin API', () => {
  test('a new owner gets a live and a sandbox key, shown once', async ({ admin, request }) => {
    const res = await admin.post('/admin/v1/owners', { data: { name: 'Acme' } });
    expect(res.status()).toBe(201);
    const owner = await res.json();
    expect(owner.api_keys).toHaveLength(2);
    expect(owner.api_keys.map((k: { sandbox: boolean }) => k.sandbox).sort()).toEqual([false, true]);
    expect(owner.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const shown = await (await admin.get(`/admin/v1/owners/${owner.id}`)).json();
    expect(JSON.stringify(shown)).not.toContain(owner.api_keys[0].key);
    expect(shown.api_keys[0].prefix).toBeTruthy();
    const list = await (await admin.get('/admin/v1/owners?limit=100')).json();
    expect(list.list.some((o: { id: string }) => o.id === owner.id)).toBe(true);
    // the key works
    expect((await request.get('/silo/v1/entries', { headers: bearer(owner.api_keys[0].key) })).status()).toBe(200);
  });

  test('a revoked key stops working at once; new keys work', async ({ admin, request, newOwner }) => {
    const owner = await newOwner();
    const created = await (await admin.post(`/admin/v1/owners/${owner.id}/keys`, { data: { sandbox: false } })).json();
    expect((await request.get('/silo/v1/entries', { headers: bearer(created.key) })).status()).toBe(200);
    expect((await admin.delete(`/admin/v1/owners/${owner.id}/keys/${created.id}`)).status()).toBe(204);
    await expectError(await request.get('/silo/v1/entries', { headers: bearer(created.key) }), 401, 'unauthorized');
  });

  test('the admin API needs the admin key', async ({ request, newOwner }) => {
    const owner = await newOwner();
    await expectError(await request.post('/admin/v1/owners', { data: { name: 'x' } }), 401, 'unauthorized');
    await expectError(await request.post('/admin/v1/owners', { headers: bearer('nope'), data: { name: 'x' } }), 401);
    await expectError(await request.post('/admin/v1/owners', { headers: bearer(owner.liveKey), data: { name: 'x' } }), 403, 'forbidden');
  });

  test('the admin key holds no silo data', async ({ admin }) => {
    await expectError(await admin.get('/silo/v1/entries'), 403, 'forbidden');
  });
});

test.describe('authorize enrollment', () => {
  async function newApp(admin: import('@playwright/test').APIRequestContext, trusted = false) {
    const res = await admin.post('/admin/v1/apps', { data: { name: 'Invoicer', trusted } });
    expect(res.status()).toBe(201);
    return res.json();
  }

  test("with the owner's consent (its key) the enrollment is made once and issues working tokens", async ({ admin, request, newOwner }) => {
    const owner = await newOwner();
    const app = await newApp(admin);
    const ask = () =>
      request.post('/access/v1/enrollment/authorize', {
        headers: { 'X-Owner-Key': owner.liveKey },
        data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
      });
    const first = await ask();
    expect(first.status(), await first.text()).toBe(200);
    const e1 = await first.json();
    expect(e1).toMatchObject({ app_id: app.id, owner_id: owner.id, disabled: false, sandbox: false });
    expect(e1.token_expires).toBeGreaterThan(Date.now() / 1000 + 3000);
    expect(e1.token_expires).toBeLessThan(Date.now() / 1000 + 3700);
    const e2 = await (await ask()).json();
    expect(e2.id).toBe(e1.id);
    expect(e2.token).not.toBe(e1.token);
    // both tokens act as the owner, in its environment
    const entry = await request.post('/silo/v1/entries', { headers: bearer(e1.token), data: { name: 'via token' } });
    expect(entry.status()).toBe(201);
    const seen = await (await request.get('/silo/v1/entries', { headers: bearer(owner.liveKey) })).json();
    expect(seen.list.map((x: { id: string }) => x.id)).toContain((await entry.json()).id);
    expect((await request.get('/silo/v1/entries', { headers: bearer(e2.token) })).status()).toBe(200);
    // by id, afterwards
    const byId = await request.post('/access/v1/enrollment/authorize', {
      data: { client_id: app.client_id, client_secret: app.client_secret, id: e1.id },
    });
    expect(byId.status()).toBe(200);
  });

  test('client credentials in the body or HTTP Basic, the owner key as Bearer or X-Owner-Key; sandbox keys enroll sandbox', async ({
    admin,
    request,
    newOwner,
  }) => {
    const owner = await newOwner();
    const app = await newApp(admin);
    const viaBearer = await request.post('/access/v1/enrollment/authorize', {
      headers: bearer(owner.sandboxKey),
      data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
    });
    expect(viaBearer.status()).toBe(200);
    expect((await viaBearer.json()).sandbox).toBe(true);
    const basic = Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64');
    const viaBasic = await request.post('/access/v1/enrollment/authorize', {
      headers: { Authorization: `Basic ${basic}`, 'X-Owner-Key': owner.liveKey },
      data: { owner_id: owner.id },
    });
    expect(viaBasic.status()).toBe(200);
    expect((await viaBasic.json()).sandbox).toBe(false);
  });

  test("wrong credentials are refused alike, as are untrusted apps without consent and other owners' keys", async ({
    admin,
    request,
    newOwner,
  }) => {
    const owner = await newOwner();
    const other = await newOwner('Other');
    const app = await newApp(admin);
    const post = (data: object, headers: Record<string, string> = {}) => request.post('/access/v1/enrollment/authorize', { data, headers });
    const wrongSecret = await expectError(
      await post({ client_id: app.client_id, client_secret: 'silo_cs_wrong', owner_id: owner.id }),
      401,
      'unauthorized',
    );
    const unknownId = await expectError(
      await post({ client_id: 'app_nope', client_secret: 'silo_cs_wrong', owner_id: owner.id }),
      401,
      'unauthorized',
    );
    expect(unknownId.message).toBe(wrongSecret.message);
    await expectError(await post({ client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id }), 403, 'forbidden');
    await expectError(
      await post({ client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id }, { 'X-Owner-Key': other.liveKey }),
      403,
      'forbidden',
    );
    await expectError(await post({ client_id: app.client_id, client_secret: app.client_secret }), 422, 'validation');
    await expectError(
      await post({ client_id: app.client_id, client_secret: app.client_secret, id: '00000000-0000-4000-8000-000000000000' }),
      404,
      'not_found',
    );
  });

  test('a trusted app needs no consent and gets the sandbox on request', async ({ admin, request, newOwner }) => {
    const owner = await newOwner();
    const app = await newApp(admin, true);
    const live = await request.post('/access/v1/enrollment/authorize', {
      data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
    });
    expect((await live.json()).sandbox).toBe(false);
    const sb = await request.post('/access/v1/enrollment/authorize', {
      data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id, sandbox: true },
    });
    const sbe = await sb.json();
    expect(sbe.sandbox).toBe(true);
    // sandbox tokens never see live data
    const liveEntry = await (await request.post('/silo/v1/entries', { headers: bearer(owner.liveKey), data: { name: 'live' } })).json();
    await expectError(await request.get(`/silo/v1/entries/${liveEntry.id}`, { headers: bearer(sbe.token) }), 404, 'not_found');
    await expectError(await request.get(`/silo/v1/entries/${liveEntry.id}`, { headers: bearer(owner.sandboxKey) }), 404, 'not_found');
  });

  test('disabling an enrollment stops its tokens at once; enabling restores them', async ({ admin, request, newOwner }) => {
    const owner = await newOwner();
    const app = await newApp(admin, true);
    const e = await (
      await request.post('/access/v1/enrollment/authorize', {
        data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
      })
    ).json();
    const off = await admin.patch(`/admin/v1/enrollments/${e.id}`, { data: { disabled: true } });
    expect(off.status()).toBe(200);
    expect((await off.json()).token).toBeUndefined();
    await expectError(await request.get('/silo/v1/entries', { headers: bearer(e.token) }), 403, 'enrollment_disabled');
    await expectError(
      await request.post('/access/v1/enrollment/authorize', {
        data: { client_id: app.client_id, client_secret: app.client_secret, id: e.id },
      }),
      403,
      'enrollment_disabled',
    );
    await admin.patch(`/admin/v1/enrollments/${e.id}`, { data: { disabled: false } });
    expect((await request.get('/silo/v1/entries', { headers: bearer(e.token) })).status()).toBe(200);
    const list = await (await admin.get(`/admin/v1/enrollments?owner_id=${owner.id}`)).json();
    expect(list.list.map((x: { id: string }) => x.id)).toEqual([e.id]);
  });

  test('rotating a client secret retires the old one', async ({ admin, request, newOwner }) => {
    const owner = await newOwner();
    const app = await newApp(admin, true);
    const rotated = await (await admin.post(`/admin/v1/apps/${app.id}/secret`)).json();
    expect(rotated.client_secret).not.toBe(app.client_secret);
    await expectError(
      await request.post('/access/v1/enrollment/authorize', {
        data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
      }),
      401,
    );
    expect(
      (
        await request.post('/access/v1/enrollment/authorize', {
          data: { client_id: app.client_id, client_secret: rotated.client_secret, owner_id: owner.id },
        })
      ).status(),
    ).toBe(200);
    const apps = await (await admin.get('/admin/v1/apps')).json();
    expect(JSON.stringify(apps)).not.toContain(rotated.client_secret);
  });

  test("authorize by id only reaches the application's own enrollments", async ({ admin, request, newOwner }) => {
    const owner = await newOwner();
    const mk = async () => (await admin.post('/admin/v1/apps', { data: { name: 'X', trusted: true } })).json();
    const [a, b] = [await mk(), await mk()];
    const ea = await (
      await request.post('/access/v1/enrollment/authorize', {
        data: { client_id: a.client_id, client_secret: a.client_secret, owner_id: owner.id },
      })
    ).json();
    await expectError(
      await request.post('/access/v1/enrollment/authorize', {
        data: { client_id: b.client_id, client_secret: b.client_secret, id: ea.id },
      }),
      404,
      'not_found',
    );
  });
});

test.describe('credentials', () => {
  test('no, malformed or unknown credentials answer 401', async ({ request }) => {
    await expectError(await request.get('/silo/v1/entries'), 401, 'unauthorized');
    await expectError(await request.get('/silo/v1/entries', { headers: { Authorization: 'Token abc' } }), 401);
    await expectError(await request.get('/silo/v1/entries', { headers: bearer('silo_live_unknown') }), 401);
    await expectError(await request.get('/silo/v1/entries', { headers: bearer('silo_tok_live_unknown') }), 401);
  });

  test('keys, secrets and tokens are never stored as given', async ({ admin, request, newOwner, server }) => {
    const owner = await newOwner();
    const app = await (await admin.post('/admin/v1/apps', { data: { name: 'S', trusted: true } })).json();
    const { token } = await (
      await request.post('/access/v1/enrollment/authorize', {
        data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
      })
    ).json();
    // The embedded database keeps its pages under the data directory: none may contain a secret.
    const { readdir, readFile } = await import('node:fs/promises');
    const path = await import('node:path');
    test.skip(!!process.env.DATABASE_URL || !(await readdir(server.dataDir)).includes('db'), 'embedded database only');
    const files: string[] = [];
    const walk = async (d: string) => {
      for (const e of await readdir(d, { withFileTypes: true }))
        e.isDirectory() ? await walk(path.join(d, e.name)) : files.push(path.join(d, e.name));
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
});
