// Answers the HTTP server makes before the app runs (scripts/serve.mjs) carry the contract's
// error body too: unknown methods, malformed percent-encoding in the path, oversized headers and
// requests that are not HTTP at all.
import net from 'node:net';
import { expect, test } from '../fixtures';

/** Sends raw bytes and returns the status and the JSON body of the answer. */
async function raw(url: string, request: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const { hostname, port } = new URL(url);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(request));
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
  const [head, ...rest] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(rest.join('\r\n\r\n')) };
}

test.describe('answers the HTTP server makes before the app runs', () => {
  for (const [name, request, status, key] of [
    ['TRACE', 'TRACE /utils/v1/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 405, 'method_not_allowed'],
    ['a malformed % in the path', 'GET /silo/v1/entries/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400, 'bad_request'],
    ['oversized headers', `GET /utils/v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ['a request that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'bad_request'],
  ] as const) {
    test(`${name} answers ${status} with the contract's error body`, async ({ server }) => {
      const res = await raw(server.url, request);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ code: status, key });
      expect(typeof res.body.message).toBe('string');
    });
  }
});
