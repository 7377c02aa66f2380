// SIGTERM drains: the server stops taking connections, lets a request in flight finish within
// SHUTDOWN_GRACE_SECONDS, and exits; an upload cut at the end of the grace keeps its held bytes.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { bearer, expect, test } from '../fixtures';
import { startServer } from '../fixtures/server';
import { sha256 } from './helpers';

function put(url: string, total: number, headers: Record<string, string> = {}) {
  const req = http.request(url, { method: 'PUT', headers: { 'Content-Length': String(total), ...headers } });
  const answered = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
  });
  return { req, answered };
}

test.describe('SIGTERM drains', () => {
  test('SIGTERM lets an upload in flight finish, then exits; one past the grace keeps its bytes for a resume', async ({ database }) => {
    test.setTimeout(180_000);
    const s = await startServer({ database, env: { SHUTDOWN_GRACE_SECONDS: '3' } });
    try {
      const h = bearer(s.adminKey);
      const owner = await (
        await fetch(`${s.url}/admin/v1/owners`, {
          method: 'POST',
          headers: { ...h, 'Content-Type': 'application/json' },
          body: '{"name":"Drain"}',
        })
      ).json();
      const key = bearer(owner.api_keys.find((k: { sandbox: boolean }) => !k.sandbox).key);
      const entry = await (
        await fetch(`${s.url}/silo/v1/entries`, { method: 'POST', headers: { ...key, 'Content-Type': 'application/json' }, body: '{}' })
      ).json();
      const placeholder = async (bytes: Buffer) =>
        (await (
          await fetch(`${s.url}/silo/v1/entries/${entry.id}/files`, {
            method: 'POST',
            headers: { ...key, 'Content-Type': 'application/json' },
            body: JSON.stringify({
              name: `f${Math.random()}.bin`,
              mime: 'application/octet-stream',
              sha256: sha256(bytes),
              size: bytes.length,
            }),
          })
        ).json()) as { id: string; url: string };
      const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, s.url);
      const quick = randomBytes(256 * 1024);
      const slow = randomBytes(256 * 1024);
      const q = await placeholder(quick);
      const sl = await placeholder(slow);
      // Both uploads are under way when SIGTERM arrives: the first finishes within the grace, the
      // second is still waiting for bytes when the grace ends.
      const first = put(local(q.url), quick.length);
      first.req.write(quick.subarray(0, 1024));
      const second = put(local(sl.url), slow.length);
      second.req.write(slow.subarray(0, 100 * 1024));
      await new Promise((r) => setTimeout(r, 500));
      process.kill(-s.pid, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      first.req.end(quick.subarray(1024));
      expect(await first.answered).toBe(200);
      // New connections are refused while draining.
      await expect(fetch(`${s.url}/utils/v1/ping`)).rejects.toThrow();
      expect(await second.answered).not.toBe(200);
      // The process exits by itself once the grace is over.
      const gone = async () => {
        for (let i = 0; i < 100; i++) {
          try {
            process.kill(-s.pid, 0);
          } catch {
            return true;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        return false;
      };
      expect(await gone()).toBe(true);
      expect(s.output()).toMatch(/"msg":"shutting down"/);
      // Back up: the second upload's bytes are held and it resumes.
      await s.restart();
      const head = await fetch(local(sl.url), { method: 'HEAD' });
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBe(100 * 1024);
      const rest = await fetch(local(sl.url), {
        method: 'PUT',
        headers: { 'Content-Range': `bytes ${offset}-${slow.length - 1}/${slow.length}` },
        body: slow.subarray(offset),
      });
      expect(rest.status).toBe(200);
      expect(sha256(Buffer.from(await (await fetch(local(q.url))).arrayBuffer()))).toBe(sha256(quick));
    } finally {
      await s.stop();
    }
  });
});
