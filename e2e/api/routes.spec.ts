// Every route of the app, read from its files (scripts/route-table.mjs), answers the methods it does
// not serve with the contract's 405 and an `Allow` of exactly the ones it does, OPTIONS with 204 and
// the same `Allow`, and HEAD as GET wherever it serves GET (docs/api.md, Requests).
import http from 'node:http';
import path from 'node:path';
import { allowOf, deriveRoutes, type RouteEntry } from '../../scripts/route-table.mjs';
import { expect, test } from '../fixtures';
import { expectError } from './helpers';

const ROOT = path.resolve(__dirname, '../..');
const ID = '00000000-0000-4000-8000-000000000000';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A path the pattern matches: an id for each parameter, one segment for a catch-all. */
const pathOf = (pattern: string) => pattern.replace(/\[\[?\.\.\.[^\]]+\]\]?/g, 'session').replace(/\[[^\]]+\]/g, ID);

test.describe('every route tells what it serves', () => {
  let routes: RouteEntry[];
  test.beforeAll(async () => {
    routes = await deriveRoutes(ROOT);
  });

  test('the walk finds the App Router and the Pages Router routes', () => {
    const patterns = routes.map((r) => r.pattern);
    expect(patterns).toEqual(
      expect.arrayContaining([
        '/utils/v1/ping',
        '/silo/v1/entries/[entry_id]',
        '/silo/v1/files/[id]',
        '/api/silo/v1/files/[id]',
        '/api/auth/[...nextauth]',
      ]),
    );
    expect(routes.length).toBeGreaterThan(30);
  });

  test('each unserved method answers 405 with Allow and a request id; OPTIONS 204 with the same Allow', async ({ request }) => {
    for (const r of routes) {
      const url = pathOf(r.pattern);
      const allow = allowOf(r.methods);
      for (const method of METHODS.filter((m) => !r.methods.includes(m))) {
        const res = await request.fetch(url, { method, headers: { 'X-Request-Id': `walk-${method}` } });
        if (method === 'HEAD') expect([url, res.status(), (await res.body()).length]).toEqual([url, 405, 0]);
        else await expectError(res, 405, 'method_not_allowed');
        expect([`${method} ${url}`, res.headers().allow, res.headers()['x-request-id']]).toEqual([
          `${method} ${url}`,
          allow,
          `walk-${method}`,
        ]);
      }
      const options = await request.fetch(url, { method: 'OPTIONS', headers: { 'X-Request-Id': 'walk-options' } });
      expect([url, options.status(), options.headers().allow, options.headers()['x-request-id'], (await options.body()).length]).toEqual([
        url,
        204,
        allow,
        'walk-options',
        0,
      ]);
    }
  });

  test('each served method reaches its route (no 405), and HEAD answers as GET, without a body', async ({ request }) => {
    for (const r of routes) {
      const url = pathOf(r.pattern);
      if (r.methods.includes('GET')) expect(r.methods, url).toContain('HEAD');
      for (const method of r.methods.filter((m) => m !== 'HEAD')) {
        const res = await request.fetch(url, { method, maxRedirects: 0 });
        expect([`${method} ${url}`, res.status()]).not.toEqual([`${method} ${url}`, 405]);
        // next-auth's own answers carry none; every API route's do.
        if (!r.pattern.startsWith('/api/auth/')) expect(res.headers()['x-request-id'], `${method} ${url}`).toBeTruthy();
      }
      // next-auth answers only GET and POST (its HEAD, Next's GET, is its 400): not the API's.
      if (!r.methods.includes('GET') || r.pattern.startsWith('/api/auth/')) continue;
      const [get, head] = [await request.get(url, { maxRedirects: 0 }), await request.head(url, { maxRedirects: 0 })];
      expect([url, head.status(), (await head.body()).length]).toEqual([url, get.status(), 0]);
    }
  });
});

test.describe('a refusal from the route table', () => {
  test('a body sent with an unserved method is read and dropped: a client still sending gets the 405, on a connection that stays open', async ({
    server,
  }) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, url: string, chunks: number) =>
      new Promise<{ status: number; allow?: string; socket: unknown }>((resolve, reject) => {
        const req = http.request(`${server.url}${url}`, { method, agent });
        req.on('error', reject);
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, socket: req.socket }));
        });
        let sent = 0;
        const tick = setInterval(() => {
          if (sent++ === chunks) {
            clearInterval(tick);
            return void req.end();
          }
          req.write(Buffer.alloc(1024 * 1024, 'A'));
        }, 100);
      });
    try {
      // 8 MiB, chunked, over ~1 s: the answer comes at once and the client goes on sending.
      const refused = await send('PUT', '/utils/v1/ping', 8);
      expect([refused.status, refused.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
      const next = await send('GET', '/utils/v1/ping', 0);
      expect(next.status).toBe(200);
      expect(next.socket).toBe(refused.socket);
    } finally {
      agent.destroy();
    }
  });
});
