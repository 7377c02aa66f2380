// The hostile review's own examples (issue 9, items 2, 3 and 16), each pinned by name.
import { randomUUID } from 'node:crypto';
import { bearer, expect, test } from '../fixtures';
import { CURSORS, signIn } from './hostile-support';
import { b64, createEntry, expectError, inlineFile, sha256 } from './helpers';

test.describe('strings the API stores', () => {
  test('a mime HTTP cannot carry is refused; every accepted form is served back as sent', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const post = (mime: string) =>
      request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data: { name: 'a.txt', data: b64('abc'), mime } });
    for (const mime of [
      'text/plain; x=\u0100',
      'text/plain; x="\u00e9"',
      'text/plain; \u0000',
      'text/plain\r\nX-Evil: 1',
      'text/plain; x',
      'text/plain;x=\ud800',
      'text',
    ]) {
      const err = await expectError(await post(mime), 422, 'validation');
      expect(err.fields?.mime, mime).toBeTruthy();
    }
    for (const mime of [
      'text/plain; charset=utf-8',
      'text/plain;charset="utf-8"',
      'application/vnd.oasis.opendocument.text',
      'multipart/mixed; boundary="a b;c"',
    ]) {
      const res = await post(mime);
      expect(res.status(), mime).toBe(201);
      const f = await res.json();
      expect(f.mime).toBe(mime);
      const got = await request.get(`/silo/v1/entries/${entry.id}/files/${f.id}`, { headers: bearer(liveKey) });
      expect(got.status()).toBe(200);
      expect(got.headers()['content-type']).toBe(mime);
      expect((await request.get(f.url)).status()).toBe(200);
    }
  });

  test('meta with NUL or a lone surrogate, in a key or a value, is refused and nothing is stored', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey, { meta: { keep: 'me' } });
    const file = await inlineFile(request, liveKey, entry.id, { name: 'f.txt', data: b64('f') });
    const metas = [{ 'a\u0000': 'v' }, { a: 'v\u0000' }, { '\ud800': 'v' }, { a: 'x\udc00' }];
    for (const meta of metas) {
      await expectError(await request.post('/silo/v1/entries', { headers: bearer(liveKey), data: { meta } }), 422, 'validation');
      await expectError(
        await request.put(`/silo/v1/entries/${randomUUID()}`, { headers: bearer(liveKey), data: { meta } }),
        422,
        'validation',
      );
      await expectError(
        await request.patch(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey), data: { meta } }),
        422,
        'validation',
      );
      await expectError(
        await request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data: { name: 'g', data: b64('g'), meta } }),
        422,
        'validation',
      );
      await expectError(
        await request.patch(`/silo/v1/entries/${entry.id}/files/${file.id}`, { headers: bearer(liveKey), data: { meta } }),
        422,
        'validation',
      );
    }
    const list = await (await request.get('/silo/v1/entries', { headers: bearer(liveKey) })).json();
    expect(list.list.map((e: { id: string; meta: unknown }) => [e.id, e.meta])).toEqual([[entry.id, { keep: 'me' }]]);
    const files = await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey) })).json();
    expect(files.list.map((f: { id: string; meta: unknown }) => [f.id, f.meta])).toEqual([[file.id, {}]]);
  });

  test('cursors that decode to a non-UUID id or an unrepresentable time answer 422 on every list', async ({ request, admin, newOwner }) => {
    const { liveKey } = await newOwner();
    for (const cursor of [...CURSORS, 'abc', '0', '-1']) {
      await expectError(await request.get(`/silo/v1/events?cursor=${cursor}`, { headers: bearer(liveKey) }), 422, 'validation');
      await expectError(await request.get(`/silo/v1/events?order=desc&cursor=${cursor}`, { headers: bearer(liveKey) }), 422, 'validation');
    }
    for (const cursor of CURSORS) {
      await expectError(await request.get(`/silo/v1/entries?cursor=${cursor}`, { headers: bearer(liveKey) }), 422, 'validation');
      for (const list of ['/admin/v1/owners', '/admin/v1/apps', '/admin/v1/enrollments'])
        await expectError(await admin.get(`${list}?cursor=${cursor}`), 422, 'validation');
    }
  });

  test('?folder= and ?key= with NUL answer 422', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    for (const q of ['folder=%00', 'key=%00', 'folder=a%00b', 'key=%00&folder=x', 'folder_exact=%00'])
      if (q.startsWith('folder_exact'))
        expect((await request.get(`/silo/v1/entries?${q}`, { headers: bearer(liveKey) })).status()).toBeLessThan(500);
      else await expectError(await request.get(`/silo/v1/entries?${q}`, { headers: bearer(liveKey) }), 422, 'validation');
  });

  test('a date PostgreSQL cannot hold (year 0000 or 10000) answers 422 naming its field everywhere a date is read', async ({
    request,
    newOwner,
  }) => {
    const { liveKey } = await newOwner();
    const h = { headers: bearer(liveKey) };
    const field = async (res: Parameters<typeof expectError>[0]) => Object.keys((await expectError(res, 422, 'validation')).fields ?? {});
    for (const d of ['0000-01-01', '10000-01-01']) {
      expect(await field(await request.get(`/silo/v1/entries?issued_from=${d}`, h))).toEqual(['issued_from']);
      expect(await field(await request.get(`/silo/v1/entries?issued_to=${d}`, h))).toEqual(['issued_to']);
      expect(await field(await request.get(`/silo/v1/export?from=${d}&to=2026-01-01`, h))).toContain('from');
      expect(
        await field(await request.post('/silo/v1/auditor-keys', { ...h, data: { from: d, to: '2026-01-01', expires_in: 60 } })),
      ).toContain('from');
    }
    const entry = await createEntry(request, liveKey);
    for (const t of ['0000-06-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '10000-01-01T00:00:00Z']) {
      const res = await request.post(`/silo/v1/entries/${entry.id}/files`, {
        ...h,
        data: { name: 'a.txt', data: b64('a'), retain_until: t },
      });
      expect(await field(res)).toEqual(['retain_until']);
    }
  });
});

test.describe('the inline limit', () => {
  test('inline data from 3.5 MiB up to the 5 MiB limit is stored; one byte more is 413', async ({ request, newOwner }) => {
    test.setTimeout(180_000);
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const MiB = 1024 * 1024;
    for (const size of [3.5 * MiB, 5 * MiB]) {
      const bytes = Buffer.alloc(size, size & 0xff);
      for (let i = 0; i < size; i += 4099) bytes[i] = i & 0xff;
      const f = await inlineFile(request, liveKey, entry.id, { name: `${size}.bin`, data: bytes.toString('base64') });
      expect(f).toMatchObject({ size, hash: sha256(bytes), stored: true });
      const got = await request.get(f.url);
      expect(sha256(await got.body())).toBe(sha256(bytes));
    }
    await expectError(
      await request.post(`/silo/v1/entries/${entry.id}/files`, {
        headers: bearer(liveKey),
        data: { name: 'over.bin', data: Buffer.alloc(5 * MiB + 1).toString('base64') },
      }),
      413,
      'too_large',
    );
  });
});

test.describe('credentials and workspace headers', () => {
  test('a session cookie that is not valid percent-encoding is no credential, on every endpoint', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const pub = await inlineFile(request, liveKey, entry.id, { name: 'p.txt', data: b64('public') });
    const priv = await inlineFile(request, liveKey, entry.id, { name: 's.txt', data: b64('secret'), private: true });
    const cookies = [
      'next-auth.session-token=%',
      'next-auth.session-token=%E0%A4%A',
      '__Secure-next-auth.session-token=%',
      'next-auth.session-token.0=%; next-auth.session-token.1=%zz',
    ];
    const files = `/silo/v1/entries/${entry.id}/files`;
    const authenticated: [string, string][] = [
      ['GET', '/silo/v1/entries'],
      ['GET', '/silo/v1/folders'],
      ['POST', '/silo/v1/entries'],
      ['GET', `/silo/v1/entries/${entry.id}`],
      ['PUT', `/silo/v1/entries/${randomUUID()}`],
      ['PATCH', `/silo/v1/entries/${entry.id}`],
      ['DELETE', `/silo/v1/entries/${entry.id}`],
      ['GET', files],
      ['POST', files],
      ['GET', `${files}/${pub.id}`],
      ['HEAD', `${files}/${pub.id}`],
      ['PUT', `${files}/${randomUUID()}`],
      ['PATCH', `${files}/${pub.id}`],
      ['DELETE', `${files}/${pub.id}`],
      ['POST', `${files}/${pub.id}/restore`],
      ['PUT', `${files}/${pub.id}/data`],
      ['HEAD', `${files}/${pub.id}/data`],
      ['GET', '/admin/v1/owners'],
      ['POST', '/admin/v1/owners'],
      ['GET', '/admin/v1/me'],
      ['GET', '/admin/v1/users'],
      ['GET', '/admin/v1/apps'],
      ['GET', '/admin/v1/enrollments'],
    ];
    for (const Cookie of cookies) {
      for (const [method, url] of authenticated) {
        const res = await request.fetch(url, {
          method,
          headers: { Cookie, 'Content-Type': 'application/json' },
          data: method === 'GET' || method === 'HEAD' ? undefined : '{}',
        });
        if (method === 'HEAD') expect(res.status(), `${method} ${url}`).toBe(401);
        else await expectError(res, 401, 'unauthorized');
      }
      // A file's link needs no credentials: a cookie that does not verify is ignored, not an error.
      const got = await request.get(pub.url, { headers: { Cookie } });
      expect(got.status()).toBe(200);
      expect(await got.text()).toBe('public');
      await expectError(await request.get(priv.url, { headers: { Cookie } }), 401, 'unauthorized');
      expect((await request.get('/utils/v1/ping', { headers: { Cookie } })).status()).toBe(200);
    }
    expect((await request.get(`/silo/v1/entries/${entry.id}`, { headers: bearer(liveKey) })).status()).toBe(200);
  });

  test('X-Silo-Owner that is not a UUID answers 400; X-Silo-Sandbox must be true or false', async ({
    admin,
    request,
    newOwner,
    playwright,
    server,
  }) => {
    const a = await newOwner();
    await createEntry(request, a.liveKey, { name: 'A' });
    const password = 'correct horse battery';
    const email = `admin-${randomUUID().slice(0, 8)}@example.com`;
    expect((await admin.post('/admin/v1/users', { data: { email, password, admin: true } })).status()).toBe(201);
    const Cookie = await signIn(playwright, server.url, email, password);
    const origin = { Origin: server.url };
    for (const owner of ['not-a-uuid', `${a.id}x`, '%00', ' ', a.id.replace(/-/g, '')]) {
      await expectError(await request.get('/silo/v1/entries', { headers: { Cookie, 'X-Silo-Owner': owner } }), 400, 'bad_request');
      await expectError(
        await request.post('/silo/v1/entries', { headers: { Cookie, ...origin, 'X-Silo-Owner': owner }, data: {} }),
        400,
        'bad_request',
      );
    }
    await expectError(
      await request.get('/silo/v1/entries', { headers: { Cookie, 'X-Silo-Owner': a.id, 'X-Silo-Sandbox': 'yes' } }),
      400,
      'bad_request',
    );
    const listed = await request.get('/silo/v1/entries', {
      headers: { Cookie, 'X-Silo-Owner': a.id.toUpperCase(), 'X-Silo-Sandbox': 'false' },
    });
    expect((await listed.json()).list).toHaveLength(1);
  });

  test('HTTP Basic client credentials with NUL answer 401, not a database error', async ({ request }) => {
    const basic = (s: string) => ({ Authorization: `Basic ${Buffer.from(s).toString('base64')}` });
    for (const pair of ['app_\u0000:secret', 'app_x:\u0000', '\u0000:\u0000'])
      await expectError(
        await request.post('/access/v1/enrollment/authorize', { headers: basic(pair), data: { owner_id: randomUUID() } }),
        401,
        'unauthorized',
      );
    await expectError(
      await request.post('/access/v1/enrollment/authorize', {
        data: { client_id: 'app_\u0000', client_secret: 's', owner_id: randomUUID() },
      }),
      422,
      'validation',
    );
  });

  test('console sign-in with NUL in the email is refused, not a 500', async ({ request }) => {
    const { csrfToken } = await (await request.get('/api/auth/csrf')).json();
    const res = await request.post('/api/auth/callback/credentials', {
      form: { csrfToken, email: 'a\u0000@b.c', password: 'x', json: 'true' },
      maxRedirects: 0,
    });
    expect(res.status()).toBeLessThan(500);
    expect(await (await request.get('/api/auth/session')).json()).toEqual({});
  });
});
