// The hostile suite: generated bodies, query strings, path segments, headers and cookies on every
// API route. Whatever arrives, no answer is a 5xx, every error has the contract's body with
// code === status, and a refused request changes no stored data (snapshots before and after).
// It runs on its own server, so that its authorize calls spend no other spec's rate limit.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures';
import { startServer, type SiloServer } from '../fixtures/server';
import {
  adminSnapshot,
  bodyFor,
  contentType,
  expectContract,
  headerValue,
  hostileJson,
  hostileString,
  ownerSnapshot,
  queryString,
  rawBody,
  segment,
  signIn,
} from './hostile-support';
import { b64, sha256 } from './helpers';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 50);

interface World {
  server: SiloServer;
  api: APIRequestContext;
  admin: APIRequestContext;
  a: { id: string; live: string; sandbox: string };
  b: { id: string; live: string };
  entry: string;
  sandboxEntry: string;
  file: { id: string; url: string; hash: string };
  privateFile: { id: string; url: string };
  placeholder: { id: string; url: string };
  app: { id: string; client_id: string; client_secret: string };
  /** an application whose secret the suite may rotate */
  spareApp: string;
  enrollment: { id: string; token: string };
  member: { id: string; cookie: string };
  adminCookie: string;
}

let w: World;

test.describe('generated hostile input on every route', () => {
  test.beforeAll(async ({ playwright, database }) => {
    test.setTimeout(180_000);
    const server = await startServer({ database, env: { RATE_LIMIT_AUTHORIZE_PER_MINUTE: '1000000' } });
    const api = await playwright.request.newContext({ baseURL: server.url });
    const admin = await playwright.request.newContext({
      baseURL: server.url,
      extraHTTPHeaders: { Authorization: `Bearer ${server.adminKey}` },
    });
    const ok = async (p: Promise<import('@playwright/test').APIResponse>) => {
      const res = await p;
      expect(res.status(), await res.text()).toBeLessThan(300);
      return res.json();
    };
    const owner = async (name: string) => {
      const o = await ok(admin.post('/admin/v1/owners', { data: { name } }));
      const key = (sandbox: boolean) => o.api_keys.find((k: { sandbox: boolean }) => k.sandbox === sandbox).key;
      return { id: o.id, live: key(false), sandbox: key(true) };
    };
    const a = await owner('A');
    const b = await owner('B');
    const as = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });
    const entry = (
      await ok(api.post('/silo/v1/entries', { ...as(a.live), data: { key: 'e1', folder: 'sales/2026', name: 'One', meta: { m: 'v' } } }))
    ).id;
    const sandboxEntry = (await ok(api.post('/silo/v1/entries', { ...as(a.sandbox), data: { name: 'Sandboxed' } }))).id;
    const files = `/silo/v1/entries/${entry}/files`;
    const file = await ok(api.post(files, { ...as(a.live), data: { name: 'hello.txt', data: b64('hello'), mime: 'text/plain' } }));
    const privateFile = await ok(
      api.post(files, { ...as(a.live), data: { name: 'secret.pdf', data: b64('%PDF'), mime: 'application/pdf', private: true } }),
    );
    const placeholder = await ok(
      api.post(files, { ...as(a.live), data: { name: 'later.bin', mime: 'application/octet-stream', sha256: sha256('abc'), size: 3 } }),
    );
    const app = await ok(admin.post('/admin/v1/apps', { data: { name: 'App' } }));
    const spareApp = (await ok(admin.post('/admin/v1/apps', { data: { name: 'Spare' } }))).id;
    const enrollment = await ok(
      api.post('/access/v1/enrollment/authorize', {
        headers: { 'X-Owner-Key': a.live },
        data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: a.id },
      }),
    );
    const password = 'correct horse battery';
    const memberUser = await ok(admin.post('/admin/v1/users', { data: { email: 'member@example.com', password, owner_ids: [a.id] } }));
    await ok(admin.post('/admin/v1/users', { data: { email: 'root@example.com', password, admin: true } }));
    w = {
      server,
      api,
      admin,
      a,
      b: { id: b.id, live: b.live },
      entry,
      sandboxEntry,
      file: { id: file.id, url: file.url, hash: file.hash },
      privateFile: { id: privateFile.id, url: privateFile.url },
      placeholder: { id: placeholder.id, url: placeholder.url },
      app,
      spareApp,
      enrollment: { id: enrollment.id, token: enrollment.token },
      member: { id: memberUser.id, cookie: await signIn(playwright, server.url, 'member@example.com', password) },
      adminCookie: await signIn(playwright, server.url, 'root@example.com', password),
    };
  });

  test.afterAll(async () => {
    await w?.api.dispose();
    await w?.admin.dispose();
    await w?.server.stop();
  });

  const path = (url: string) => new URL(url).pathname + new URL(url).search;
  const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

  type Guard = 'owner' | 'admin';
  /** The last snapshot known to be current, per guard; dropped when a request may have changed data. */
  const current: Partial<Record<Guard, string>> = {};

  /** Sends one generated request and checks the answer, and for a refused mutation that nothing changed. */
  async function check(r: { method: string; url: string; headers?: Record<string, string>; data?: string | Buffer; guard: Guard }) {
    const snap = () =>
      r.guard === 'owner' ? ownerSnapshot(w.api, w.a, { live: w.entry, sandbox: w.sandboxEntry }) : adminSnapshot(w.admin);
    const mutating = MUTATING.has(r.method);
    if (mutating) current[r.guard] ??= await snap();
    const before = mutating ? current[r.guard] : undefined;
    const res = await w.api.fetch(r.url, { method: r.method, headers: r.headers, data: r.data, maxRedirects: 0 });
    const what = `${r.method} ${r.url} ${JSON.stringify(r.headers ?? {})} ${String(r.data ?? '').slice(0, 300)}`;
    await expectContract(res, r.method, what);
    if (!mutating) return res;
    if (res.status() >= 400) {
      current[r.guard] = await snap();
      expect(current[r.guard], `a refused ${what} changed stored data`).toBe(before);
    } else {
      // A change one guard sees may show in the other's snapshot too (an owner's usage, say).
      delete current.owner;
      delete current.admin;
    }
    return res;
  }

  test('generated JSON bodies on every route that reads one', async () => {
    test.setTimeout(300_000);
    const silo = { Authorization: `Bearer ${w.a.live}` };
    const adminKey = { Authorization: `Bearer ${w.server.adminKey}` };
    const entryBody = bodyFor({ key: 'k', folder: 'f', name: 'n', meta: { a: 'b' } });
    const fileBody = bodyFor({
      name: 'a.txt',
      data: b64('abc'),
      mime: 'text/plain',
      sha256: sha256('abc'),
      size: 3,
      key: 'k',
      desc: 'd',
      category: 'attachment',
      private: false,
      embeddable: false,
      meta: { a: 'b' },
    });
    const files = `/silo/v1/entries/${w.entry}/files`;
    const routes: [string, string, fc.Arbitrary<unknown>, Record<string, string>, Guard][] = [
      ['POST', '/silo/v1/entries', entryBody, silo, 'owner'],
      ['PUT', `/silo/v1/entries/${randomUUID()}`, entryBody, silo, 'owner'],
      ['PUT', `/silo/v1/entries/${w.entry}`, entryBody, silo, 'owner'],
      ['PATCH', `/silo/v1/entries/${w.entry}`, entryBody, silo, 'owner'],
      ['POST', files, fileBody, silo, 'owner'],
      ['PUT', `${files}/${randomUUID()}`, fileBody, silo, 'owner'],
      ['PUT', `${files}/${w.file.id}`, fileBody, silo, 'owner'],
      ['PATCH', `${files}/${w.file.id}`, bodyFor({ desc: 'd', meta: { a: 'b' }, private: false, embeddable: true }), silo, 'owner'],
      ['POST', `${files}/${w.file.id}/restore`, hostileJson, silo, 'owner'],
      ['POST', `${files}/${w.file.id}/links`, bodyFor({ expires_in: 60 }), silo, 'owner'],
      ['POST', '/admin/v1/owners', bodyFor({ name: 'Owner' }), adminKey, 'admin'],
      ['PATCH', `/admin/v1/owners/${w.b.id}`, bodyFor({ name: 'B' }), adminKey, 'admin'],
      ['PATCH', `/admin/v1/apps/${w.spareApp}`, bodyFor({ name: 'Spare', trusted: false }), adminKey, 'admin'],
      ['POST', '/admin/v1/enrollments', bodyFor({ app_id: w.spareApp, owner_id: w.b.id, sandbox: false }), adminKey, 'admin'],
      ['POST', `/admin/v1/owners/${w.b.id}/keys`, bodyFor({ sandbox: true }), adminKey, 'admin'],
      ['POST', '/admin/v1/apps', bodyFor({ name: 'App', trusted: false }), adminKey, 'admin'],
      [
        'POST',
        '/admin/v1/users',
        bodyFor({
          email: `u${randomUUID().slice(0, 6)}@example.com`,
          name: 'U',
          password: 'long enough',
          admin: false,
          owner_ids: [w.a.id],
        }),
        adminKey,
        'admin',
      ],
      ['PATCH', `/admin/v1/users/${w.member.id}`, bodyFor({ name: 'M', owner_ids: [w.a.id] }), adminKey, 'admin'],
      ['PATCH', `/admin/v1/enrollments/${w.enrollment.id}`, bodyFor({ disabled: false }), adminKey, 'admin'],
      ['POST', '/admin/v1/setup', bodyFor({ token: 'x', email: 'a@b.c', name: 'n', password: 'long enough' }), {}, 'admin'],
      [
        'POST',
        '/access/v1/enrollment/authorize',
        bodyFor({ client_id: w.app.client_id, client_secret: w.app.client_secret, owner_id: w.a.id, id: w.enrollment.id, sandbox: false }),
        { 'X-Owner-Key': w.a.live },
        'admin',
      ],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes).chain(([method, url, body, headers, guard]) =>
          fc.record({
            method: fc.constant(method),
            url: fc.constant(url),
            headers: fc.constant(headers),
            guard: fc.constant(guard),
            data: rawBody(body),
            type: contentType,
          }),
        ),
        async ({ method, url, headers, guard, data, type }) => {
          await check({ method, url, guard, data, headers: { ...headers, 'Content-Type': type ?? 'application/json' } });
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  test('generated query strings and path segments on every route', async () => {
    test.setTimeout(300_000);
    const e = segment(w.entry, w.sandboxEntry);
    const f = segment(w.file.id, w.privateFile.id, w.placeholder.id);
    const silo = { Authorization: `Bearer ${w.a.live}` };
    const adminKey = { Authorization: `Bearer ${w.server.adminKey}` };
    const request = fc.oneof(
      fc.tuple(fc.constantFrom('GET', 'HEAD'), fc.constant('/silo/v1/entries'), queryString, fc.constant(silo)),
      fc.tuple(fc.constantFrom('GET', 'HEAD'), fc.constant('/silo/v1/folders'), queryString, fc.constant(silo)),
      fc.tuple(
        fc.constantFrom('GET', 'HEAD'),
        fc.constant('/silo/v1/entries'),
        queryString,
        fc.constant({ Cookie: w.adminCookie, 'X-Silo-Owner': w.a.id }),
      ),
      fc.tuple(
        fc.constantFrom('GET', 'HEAD', 'DELETE'),
        e.map((x) => `/silo/v1/entries/${x}`),
        queryString,
        fc.constant(silo),
      ),
      fc.tuple(
        fc.constantFrom('GET', 'HEAD'),
        e.map((x) => `/silo/v1/entries/${x}/files`),
        queryString,
        fc.constant(silo),
      ),
      fc.tuple(
        fc.constantFrom('GET', 'HEAD', 'DELETE'),
        fc.tuple(e, f).map(([x, y]) => `/silo/v1/entries/${x}/files/${y}`),
        queryString,
        fc.constant(silo),
      ),
      fc.tuple(
        fc.constantFrom('HEAD'),
        fc.tuple(e, f).map(([x, y]) => `/silo/v1/entries/${x}/files/${y}/data`),
        queryString,
        fc.constant(silo),
      ),
      fc.tuple(
        fc.constantFrom('GET', 'HEAD'),
        f.map((y) => `/silo/v1/files/${y}`),
        fc.oneof(queryString, fc.constant(new URL(w.file.url).search)),
        fc.constant({}),
      ),
      fc.tuple(
        fc.constantFrom('GET', 'HEAD'),
        fc.constantFrom('/admin/v1/owners', '/admin/v1/apps', '/admin/v1/enrollments', '/admin/v1/users', '/admin/v1/me'),
        queryString,
        fc.constant(adminKey),
      ),
      fc.tuple(
        fc.constantFrom('GET', 'HEAD'),
        fc.constantFrom('/admin/v1/owners', '/admin/v1/enrollments'),
        queryString,
        fc.constant({ Cookie: w.member.cookie }),
      ),
      fc.tuple(
        fc.constantFrom('GET'),
        segment(w.a.id, w.b.id).map((x) => `/admin/v1/owners/${x}`),
        queryString,
        fc.constant(adminKey),
      ),
      fc.tuple(
        fc.constantFrom('GET'),
        segment(w.member.id).map((x) => `/admin/v1/users/${x}`),
        queryString,
        fc.constant(adminKey),
      ),
      fc.tuple(
        fc.constantFrom('DELETE'),
        segment(w.b.id).map((x) => `/admin/v1/owners/${x}/keys/${randomUUID()}`),
        queryString,
        fc.constant(adminKey),
      ),
      fc.tuple(
        fc.constantFrom('POST'),
        segment(w.spareApp).map((x) => `/admin/v1/apps/${x}/secret`),
        queryString,
        fc.constant(adminKey),
      ),
      fc.tuple(
        fc.constantFrom('GET', 'HEAD'),
        fc.constantFrom('/utils/v1/ping', '/utils/v1/ready', '/openapi.json'),
        queryString,
        fc.constant({}),
      ),
    );
    await fc.assert(
      fc.asyncProperty(request, async ([method, p, q, headers]) => {
        // DELETE of a real entry or file would succeed; this property is about refusals and reads.
        if (method === 'DELETE' && [w.entry, w.sandboxEntry, w.file.id, w.privateFile.id, w.placeholder.id].some((id) => p.endsWith(id)))
          return;
        await check({ method, url: p + q, headers, guard: p.startsWith('/admin') ? 'admin' : 'owner' });
      }),
      { numRuns: RUNS * 3 },
    );
  });

  test('generated headers and cookies on every route', async () => {
    test.setTimeout(300_000);
    const { a } = w;
    const optional = (arb: fc.Arbitrary<string>) => fc.option(headerValue(arb), { nil: undefined, freq: 2 });
    const junk = hostileString;
    const headers = fc.record({
      Authorization: optional(
        fc.oneof(
          fc.constantFrom(
            `Bearer ${a.live}`,
            `Bearer ${a.sandbox}`,
            `Bearer ${w.b.live}`,
            `Bearer ${w.enrollment.token}`,
            `Bearer ${w.server.adminKey}`,
            'Bearer',
            'Basic',
            'Basic %%%',
          ),
          junk.map((s) => `Bearer ${s}`),
          fc.tuple(junk, junk).map(([u, p]) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`),
          junk,
        ),
      ),
      Cookie: optional(
        fc.oneof(
          fc.constantFrom(
            'next-auth.session-token=%',
            'next-auth.session-token=%E0%A4%A',
            '__Secure-next-auth.session-token=x',
            'next-auth.session-token',
            w.member.cookie,
            w.adminCookie,
            `${w.adminCookie}; next-auth.session-token=%`,
          ),
          junk.map((s) => `next-auth.session-token=${s}`),
          junk,
        ),
      ),
      'X-Silo-Owner': optional(fc.oneof(fc.constantFrom(a.id, w.b.id, 'not-a-uuid', randomUUID(), a.id.toUpperCase()), junk)),
      'X-Silo-Sandbox': optional(fc.oneof(fc.constantFrom('true', 'false', 'TRUE', '1'), junk)),
      Origin: optional(fc.constantFrom(w.server.url, 'http://evil.example', 'null', '%')),
      'Content-Type': optional(fc.oneof(fc.constantFrom('application/json', 'application/octet-stream', 'text/plain; x=\u00e9'), junk)),
      'Content-Range': optional(
        fc.oneof(
          fc.constantFrom(
            'bytes 0-2/3',
            'bytes 0-0/3',
            'bytes 1-2/3',
            'bytes */3',
            'bytes 0-1/4',
            'bytes 0-*/3',
            'bytes 0-99999999999999999999/3',
            'bytes 2-1/3',
          ),
          junk,
        ),
      ),
      Range: optional(
        fc.oneof(
          fc.constantFrom('bytes=0-1', 'bytes=-2', 'bytes=3-', 'bytes=99999999999999999999-', 'bytes=0-1,2-3', 'bytes=-0', 'bytes=5-1'),
          junk,
        ),
      ),
      'If-None-Match': optional(fc.oneof(fc.constantFrom(`"${w.file.hash}"`, `W/"${w.file.hash}"`, '*', '""'), junk)),
      'X-Owner-Key': optional(fc.oneof(fc.constantFrom(a.live, w.b.live), junk)),
      'X-Request-Id': optional(junk),
    });
    const files = `/silo/v1/entries/${w.entry}/files`;
    const routes = fc.constantFrom<[string, string]>(
      ['GET', '/silo/v1/entries'],
      ['POST', '/silo/v1/entries'],
      ['GET', `/silo/v1/entries/${w.entry}`],
      ['PATCH', `/silo/v1/entries/${w.entry}`],
      ['GET', files],
      ['POST', files],
      ['GET', `${files}/${w.file.id}`],
      ['HEAD', `${files}/${w.file.id}`],
      ['GET', `${files}/${w.privateFile.id}`],
      ['GET', path(w.file.url)],
      ['HEAD', path(w.file.url)],
      ['GET', path(w.privateFile.url)],
      ['HEAD', path(w.placeholder.url)],
      ['PUT', path(w.placeholder.url)],
      ['PUT', `${files}/${w.placeholder.id}/data`],
      ['HEAD', `${files}/${w.placeholder.id}/data`],
      ['GET', '/admin/v1/owners'],
      ['GET', '/admin/v1/me'],
      ['GET', '/admin/v1/enrollments'],
      ['POST', '/access/v1/enrollment/authorize'],
    );
    const body = fc.oneof(
      fc.constantFrom(
        'abc',
        'ab',
        'abcd',
        '',
        '{}',
        '{"name":"x"}',
        JSON.stringify({ client_id: w.app.client_id, client_secret: w.app.client_secret, owner_id: a.id }),
      ),
      hostileString,
    );
    await fc.assert(
      fc.asyncProperty(routes, headers, body, async ([method, url], h, data) => {
        const sent = Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>;
        await check({
          method,
          url,
          headers: sent,
          data: method === 'GET' || method === 'HEAD' ? undefined : data,
          guard: url.startsWith('/silo') ? 'owner' : 'admin',
        });
      }),
      { numRuns: RUNS * 3 },
    );
  });

  test('NUL and a lone surrogate in every string field of every body are refused, and change nothing', async () => {
    test.setTimeout(300_000);
    const silo = { Authorization: `Bearer ${w.a.live}` };
    const adminKey = { Authorization: `Bearer ${w.server.adminKey}` };
    const unstorable = ['a\u0000b', 'x\udc00'];
    const files = `/silo/v1/entries/${w.entry}/files`;
    const cases: [string, string, Record<string, unknown>, string[], Record<string, string>, Guard][] = [
      ['POST', '/silo/v1/entries', { key: 'nk', folder: 'f', name: 'n' }, ['key', 'folder', 'name'], silo, 'owner'],
      ['PATCH', `/silo/v1/entries/${w.entry}`, { name: 'n' }, ['key', 'folder', 'name'], silo, 'owner'],
      [
        'POST',
        files,
        { name: 'x.txt', data: b64('x'), desc: 'd', key: 'k', mime: 'text/plain' },
        ['name', 'desc', 'key', 'mime'],
        silo,
        'owner',
      ],
      ['PATCH', `${files}/${w.file.id}`, { desc: 'd' }, ['desc'], silo, 'owner'],
      ['POST', '/admin/v1/owners', { name: 'O' }, ['name'], adminKey, 'admin'],
      ['PATCH', `/admin/v1/owners/${w.b.id}`, { name: 'O' }, ['name'], adminKey, 'admin'],
      ['POST', '/admin/v1/apps', { name: 'A' }, ['name'], adminKey, 'admin'],
      ['PATCH', `/admin/v1/apps/${w.spareApp}`, { name: 'A' }, ['name'], adminKey, 'admin'],
      [
        'POST',
        '/admin/v1/users',
        { email: 'nasty@example.com', name: 'n', password: 'long enough' },
        ['email', 'name', 'password'],
        adminKey,
        'admin',
      ],
      ['PATCH', `/admin/v1/users/${w.member.id}`, { name: 'n' }, ['name', 'password'], adminKey, 'admin'],
      [
        'POST',
        '/access/v1/enrollment/authorize',
        { client_id: w.app.client_id, client_secret: w.app.client_secret, owner_id: w.a.id },
        ['client_id', 'client_secret'],
        { 'X-Owner-Key': w.a.live },
        'admin',
      ],
    ];
    for (const [method, url, valid, fields, headers, guard] of cases)
      for (const field of [...fields, 'meta'])
        for (const bad of unstorable) {
          if (field === 'meta' && !['/silo'].some((p) => url.startsWith(p))) continue;
          const bodies =
            field === 'meta'
              ? [
                  { ...valid, meta: { [bad]: 'v' } },
                  { ...valid, meta: { k: bad } },
                ]
              : [{ ...valid, [field]: bad }];
          for (const b of bodies) {
            const data = JSON.stringify(b);
            const res = await check({ method, url, headers: { ...headers, 'Content-Type': 'application/json' }, data, guard });
            expect(res.status(), `${method} ${url} ${data}`).toBe(422);
          }
        }
  });
});
