// SIGTERM drains: the server stops taking connections, lets a request in flight finish within
// SHUTDOWN_GRACE_SECONDS, and exits; an upload cut at the end of the grace keeps its held bytes.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { bearer, expect, test } from '../fixtures';
import { type SiloServer, startServer } from '../fixtures/server';
import { sha256 } from './helpers';
import { heldCopies } from './raw-http';

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

/** A placeholder maker on a fresh workspace of `s`, and the server's own address for its urls. */
async function uploadTarget(s: SiloServer) {
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
  return { placeholder, local };
}

/** Until the server is receiving each of the uploads `ids` (their held copies exist). */
const receiving = (s: SiloServer, ...ids: string[]) => expect.poll(() => heldCopies(s.storageDir)).toEqual(expect.arrayContaining(ids));

/** Until the server has logged `line` (its JSON log's "msg") `times` times. */
const logged = (s: SiloServer, line: string, times = 1) =>
  expect.poll(() => s.output().split(`"msg":"${line}"`).length - 1).toBeGreaterThanOrEqual(times);

/** Whether every process of the group `pgid` is gone. */
function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch {
    return true;
  }
}

test.describe('SIGTERM drains', () => {
  test('SIGTERM lets an upload in flight finish, then exits; one past the grace keeps its bytes for a resume', async ({ database }) => {
    test.setTimeout(180_000);
    const s = await startServer({ database, env: { SHUTDOWN_GRACE_SECONDS: '3' } });
    try {
      const { placeholder, local } = await uploadTarget(s);
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
      await receiving(s, q.id, sl.id);
      process.kill(-s.pid, 'SIGTERM');
      await logged(s, 'shutting down');
      first.req.end(quick.subarray(1024));
      expect(await first.answered).toBe(200);
      // New connections are refused while draining.
      await expect(fetch(`${s.url}/utils/v1/ping`)).rejects.toThrow();
      expect(await second.answered).not.toBe(200);
      // The process exits by itself once the grace is over.
      await expect.poll(() => groupGone(s.pid), { timeout: 10_000 }).toBe(true);
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

  // The way a container or supervisor stops `npm start`: SIGTERM to the whole process group, so npm,
  // its shell, scripts/start.mjs and scripts/serve.mjs each get it directly, and again from each
  // parent that forwards it. Before, npm's shell died of it and npm with it (at once, by the
  // signal), and the server, signalled twice, died on the second without draining, its in-flight
  // upload unanswered and data/db.lock left behind.
  test('npm start stopped by a group SIGTERM drains: the upload in flight is answered, the line printed, db.lock freed, exit 0', async ({
    database,
  }) => {
    test.setTimeout(180_000);
    const s = await startServer({ database, npm: true, env: { SHUTDOWN_GRACE_SECONDS: '20' } });
    try {
      const { placeholder, local } = await uploadTarget(s);
      const bytes = randomBytes(512 * 1024);
      const file = await placeholder(bytes);
      const up = put(local(file.url), bytes.length);
      up.req.write(bytes.subarray(0, 64 * 1024));
      await receiving(s, file.id);
      const ended = s.exited();
      process.kill(-s.pid, 'SIGTERM');
      await logged(s, 'shutting down');
      // npm waits for the drain: it is still there while the upload is.
      expect(groupGone(s.pid)).toBe(false);
      up.req.end(bytes.subarray(64 * 1024));
      expect(await up.answered).toBe(200);
      expect(await ended).toEqual({ code: 0, signal: null });
      // npm exits last: nothing of the group is left behind it.
      expect(groupGone(s.pid)).toBe(true);
      expect(s.output()).toMatch(/"msg":"shutting down"/);
      if (database === 'pglite') expect(existsSync(path.join(s.dataDir, 'db.lock'))).toBe(false);
      await s.restart();
      expect(sha256(Buffer.from(await (await fetch(local(file.url))).arrayBuffer()))).toBe(sha256(bytes));
    } finally {
      await s.stop();
    }
  });

  // Each parent of `npm start` that forwards a signal sends the server one more: a repeat must not
  // cut the drain short (before, the second SIGTERM killed it at once).
  test('a second SIGTERM during the drain changes nothing: the upload in flight is still answered, exit 0', async ({ database }) => {
    test.setTimeout(120_000);
    // debug: the repeated signal's line shows it was had
    const s = await startServer({ database, env: { SHUTDOWN_GRACE_SECONDS: '20', LOG_LEVEL: 'debug' } });
    try {
      const { placeholder, local } = await uploadTarget(s);
      const bytes = randomBytes(256 * 1024);
      const file = await placeholder(bytes);
      const up = put(local(file.url), bytes.length);
      up.req.write(bytes.subarray(0, 1024));
      await receiving(s, file.id);
      const ended = s.exited();
      process.kill(-s.pid, 'SIGTERM');
      await logged(s, 'shutting down');
      process.kill(-s.pid, 'SIGTERM');
      await logged(s, 'already shutting down');
      up.req.end(bytes.subarray(1024));
      expect(await up.answered).toBe(200);
      expect(await ended).toEqual({ code: 0, signal: null });
    } finally {
      await s.stop();
    }
  });
});
