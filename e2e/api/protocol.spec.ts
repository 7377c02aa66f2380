// Requests and responses (docs/api.md, Requests, Errors): the error body everywhere, request ids,
// services and versions, methods, content types, the JSON body limit and the OpenAPI document.
import http from 'node:http';
import { bearer, expect, test } from '../fixtures';
import { expectError } from './helpers';

test.describe('health and request ids', () => {
  test('ping and readiness answer; a request id is echoed, or made when none is sent', async ({ request }) => {
    const res = await request.get('/utils/v1/ping', { headers: { 'X-Request-Id': 'abc-123' } });
    expect(await res.json()).toEqual({ ping: 'pong' });
    expect(res.headers()['x-request-id']).toBe('abc-123');
    expect(res.headers()['content-type']).toBe('application/json; charset=utf-8');
    const ready = await request.get('/utils/v1/ready');
    expect(ready.status()).toBe(200);
    expect(ready.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

test.describe('routing', () => {
  test('an unknown service or version answers 404 unknown_version, an unknown path 404 not_found', async ({ request }) => {
    await expectError(await request.get('/transform/v1/jobs/1'), 404, 'unknown_version');
    await expectError(await request.put('/transform/v1/jobs/1', { data: {} }), 404, 'unknown_version');
    await expectError(await request.get('/silo/v2/entries'), 404, 'unknown_version');
    await expectError(await request.get('/silo/v1/nothing-here'), 404, 'not_found');
  });

  test('a wrong method answers 405 with Allow', async ({ request }) => {
    const res = await request.delete('/utils/v1/ping');
    await expectError(res, 405, 'method_not_allowed');
    expect(res.headers().allow).toContain('GET');
    const put = await request.put('/silo/v1/entries');
    await expectError(put, 405, 'method_not_allowed');
    expect(put.headers().allow).toContain('POST');
    await expectError(await request.post('/silo/v1/files/00000000-0000-4000-8000-000000000000'), 405, 'method_not_allowed');
  });

  test('Allow names exactly the methods the route file serves, on App Router and Pages Router routes alike', async ({ request }) => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [path, allow, unserved] of [
      ['/utils/v1/ping', 'GET, HEAD, OPTIONS', 'POST'],
      ['/silo/v1/entries', 'GET, HEAD, POST, OPTIONS', 'PATCH'],
      [`/silo/v1/entries/${id}`, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS', 'POST'],
      [`/admin/v1/owners/${id}/keys/${id}`, 'DELETE, OPTIONS', 'GET'],
      [`/silo/v1/entries/${id}/files`, 'GET, HEAD, POST, OPTIONS', 'DELETE'],
      [`/silo/v1/files/${id}`, 'GET, HEAD, PUT, OPTIONS', 'PATCH'],
      [`/silo/v1/entries/${id}/files/${id}/data`, 'HEAD, PUT, OPTIONS', 'GET'],
    ]) {
      const refused = await request.fetch(path, { method: unserved });
      await expectError(refused, 405, 'method_not_allowed');
      expect([path, refused.headers().allow]).toEqual([path, allow]);
      const options = await request.fetch(path, { method: 'OPTIONS', headers: { 'X-Request-Id': 'opt-1' } });
      expect([path, options.status(), options.headers().allow, options.headers()['x-request-id']]).toEqual([path, 204, allow, 'opt-1']);
    }
  });

  test('OPTIONS of an unknown path is 404 like any method; an unknown method on a known path names its Allow', async ({
    request,
    server,
  }) => {
    await expectError(await request.fetch('/silo/v1/nothing-here', { method: 'OPTIONS' }), 404, 'not_found');
    await expectError(await request.fetch('/transform/v1/jobs', { method: 'OPTIONS' }), 404, 'unknown_version');
    const trace = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.request(`${server.url}/utils/v1/ping`, { method: 'TRACE' }, resolve).on('error', reject).end(),
    );
    trace.resume();
    expect([trace.statusCode, trace.headers.allow]).toEqual([405, 'GET, HEAD, OPTIONS']);
  });
});

test.describe('request bodies', () => {
  test('a JSON endpoint refuses other content types (415), bad JSON (400) and bad fields (422)', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const h = bearer(liveKey);
    await expectError(
      await request.post('/silo/v1/entries', { headers: { ...h, 'Content-Type': 'text/plain' }, data: '{}' }),
      415,
      'unsupported_media_type',
    );
    await expectError(
      await request.post('/silo/v1/entries', { headers: { ...h, 'Content-Type': 'application/json' }, data: Buffer.from('{"name":') }),
      400,
      'bad_json',
    );
    await expectError(
      await request.post('/silo/v1/entries', { headers: { ...h, 'Content-Type': 'application/json' }, data: Buffer.from('[1,2]') }),
      400,
      'bad_request',
    );
    const v = await expectError(await request.post('/silo/v1/entries', { headers: h, data: { name: 5 } }), 422, 'validation');
    expect(v.fields?.name).toBeTruthy();
  });

  test('a body over the JSON limit answers 413', async ({ request, newOwner }) => {
    const { liveKey } = await newOwner();
    const entry = await (await request.post('/silo/v1/entries', { headers: bearer(liveKey), data: {} })).json();
    const huge = 'A'.repeat(8 * 1024 * 1024);
    await expectError(
      await request.post(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(liveKey), data: { name: 'big.bin', data: huge } }),
      413,
      'too_large',
    );
  });
});

test.describe('refused bodies', () => {
  for (const framing of ['of a declared length', 'chunked'] as const) {
    test(`a refused body ${framing} is read to its end: a client still sending gets the 413, on a connection that stays open`, async ({
      request,
      newOwner,
      server,
    }) => {
      const { liveKey } = await newOwner();
      const entry = await (await request.post('/silo/v1/entries', { headers: bearer(liveKey), data: {} })).json();
      // 10 MiB sent over ~2 s, past the JSON limit (a declared length is refused at once; a chunked
      // body once it passes the limit, at about 7 MiB): the client goes on sending after the answer
      // and must neither break (EPIPE) nor miss the answer, and its connection stays usable.
      const size = 10 * 1024 * 1024;
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const answer = await new Promise<{ status: number; body: string; socket: unknown }>((resolve, reject) => {
          const req = http.request(`${server.url}/silo/v1/entries/${entry.id}/files`, {
            method: 'POST',
            agent,
            headers: {
              ...bearer(liveKey),
              'Content-Type': 'application/json',
              ...(framing === 'chunked' ? {} : { 'Content-Length': String(size) }),
            },
          });
          req.on('error', reject);
          req.on('response', (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, socket: req.socket }));
          });
          let sent = 0;
          const tick = setInterval(() => {
            const n = Math.min(size / 10, size - sent);
            req.write(Buffer.alloc(n, 'A'));
            sent += n;
            if (sent >= size) {
              clearInterval(tick);
              req.end();
            }
          }, 200);
        });
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.body).key).toBe('too_large');
        // The same connection answers the next request.
        const next = await new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
          const req = http.request(`${server.url}/utils/v1/ping`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
          });
          req.on('error', reject);
          req.end();
        });
        expect(next.status).toBe(200);
        expect(next.socket).toBe(answer.socket);
      } finally {
        agent.destroy();
      }
    });
  }
});

test.describe('the API reference', () => {
  test('the OpenAPI document and its reference page are served', async ({ request }) => {
    const doc = await (await request.get('/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/access/v1/enrollment/authorize', '/silo/v1/entries/{entry_id}/files', '/silo/v1/files/{id}']),
    );
    expect(doc.components.schemas.FileRecord).toBeTruthy();
    const page = await request.get('/docs');
    expect(page.status()).toBe(200);
  });
});
