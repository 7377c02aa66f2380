// A server killed (SIGKILL) mid-upload and mid-replacement, then restarted on the same data:
// nothing is half-visible, the held bytes resume to the right file, a replacement is current
// entirely or not at all, the server is ready and fsck finds the store clean.
import { randomBytes } from 'node:crypto';
import { expect, test } from '../fixtures';
import { startServer, type SiloServer } from '../fixtures/server';
import { sha256 } from './helpers';
import { call, fsck, heldOffset, openUpload, ownerKey, placeholder, resume, waitHeld } from './store-faults-helpers';

const MiB = 1024 * 1024;

/** One server of the test's own (it gets killed), stopped and removed at the end. */
async function withServer(database: 'pglite' | 'postgres', fn: (s: SiloServer) => Promise<void>) {
  const s = await startServer({ database });
  try {
    await fn(s);
  } finally {
    await s.stop();
  }
}

async function fetchBytes(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function versions(s: SiloServer, key: string, entryId: string, name: string) {
  const list = await call(s, key, 'GET', `/silo/v1/entries/${entryId}/files`);
  expect(list.status).toBe(200);
  const f = list.body.list.find((x: { name: string }) => x.name === name);
  return { current: f.id as string, stored: f.stored as boolean, previous: f.previous.map((p: { id: string }) => p.id) as string[] };
}

/** Ready, then (stopped, as PGlite wants one process) fsck finds every referenced blob intact. */
async function healthy(s: SiloServer) {
  const ready = await fetch(`${s.url}/utils/v1/ready`);
  expect(ready.status, await ready.text()).toBe(200);
  await s.kill('SIGTERM');
  const check = await fsck(s);
  expect(check.code, check.out).toBe(0);
  expect(check.out).toContain('OK: every referenced blob is there, intact');
}

test.describe('a server killed mid-upload and restarted', () => {
  test('SIGKILL mid-upload: after a restart HEAD tells the held bytes and the resume stores the right file', async ({ database }) => {
    test.setTimeout(300_000);
    await withServer(database, async (s) => {
      const key = await ownerKey(s);
      const entry = (await call(s, key, 'POST', '/silo/v1/entries', { name: 'killed upload' })).body;
      const bytes = randomBytes(8 * MiB);
      const p = await placeholder(s, key, entry.id, 'big.bin', bytes);
      const req = openUpload(p.url, bytes.length, bytes.subarray(0, 3 * MiB));
      await waitHeld(p.url, 2 * MiB);
      await s.kill('SIGKILL');
      req.destroy();
      await s.restart();

      const offset = await heldOffset(p.url);
      expect(offset).toBeGreaterThanOrEqual(2 * MiB);
      expect(offset).toBeLessThanOrEqual(3 * MiB);
      // nothing half-visible: the file is a placeholder, its bytes not fetchable
      const got = await call(s, key, 'GET', `/silo/v1/entries/${entry.id}/files/${p.id}`);
      expect(got.status).toBe(409);
      expect(got.body).toMatchObject({ code: 409, key: 'not_stored' });
      expect(await versions(s, key, entry.id, 'big.bin')).toMatchObject({ current: p.id, stored: false });

      const done = await resume(p.url, bytes);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body).toMatchObject({ id: p.id, stored: true, hash: sha256(bytes), size: bytes.length });
      expect((await fetchBytes(p.url)).equals(bytes)).toBe(true);
      await healthy(s);
    });
  });

  test('SIGKILL mid-replacement: the current version and its history stay; the replacement resumes and becomes current', async ({
    database,
  }) => {
    test.setTimeout(300_000);
    await withServer(database, async (s) => {
      const key = await ownerKey(s);
      const entry = (await call(s, key, 'POST', '/silo/v1/entries', { name: 'killed replacement' })).body;
      const inline = async (text: string) =>
        (await call(s, key, 'POST', `/silo/v1/entries/${entry.id}/files`, { name: 'doc.bin', data: Buffer.from(text).toString('base64') }))
          .body;
      const v1 = await inline('version one');
      const v2 = await inline('version two');
      const bytes = randomBytes(6 * MiB);
      const v3 = await placeholder(s, key, entry.id, 'doc.bin', bytes);
      const req = openUpload(v3.url, bytes.length, bytes.subarray(0, 4 * MiB));
      await waitHeld(v3.url, 3 * MiB);
      await s.kill('SIGKILL');
      req.destroy();
      await s.restart();

      expect(await versions(s, key, entry.id, 'doc.bin')).toEqual({ current: v2.id, stored: true, previous: [v1.id] });
      expect((await fetchBytes(v2.url)).toString()).toBe('version two');
      expect((await fetchBytes(v1.url)).toString()).toBe('version one');
      const done = await resume(v3.url, bytes);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(await versions(s, key, entry.id, 'doc.bin')).toEqual({ current: v3.id, stored: true, previous: [v2.id, v1.id] });
      expect((await fetchBytes(v3.url)).equals(bytes)).toBe(true);
      await healthy(s);
    });
  });

  test('SIGKILL as an upload ends (x6): the replacement is current entirely or not at all, and completes after', async ({ database }) => {
    test.setTimeout(600_000);
    await withServer(database, async (s) => {
      const key = await ownerKey(s);
      const entry = (await call(s, key, 'POST', '/silo/v1/entries', { name: 'killed at the end' })).body;
      const first = (await call(s, key, 'POST', `/silo/v1/entries/${entry.id}/files`, { name: 'end.bin', data: 'MQ==' })).body;
      const history: { id: string; url: string; bytes: Buffer }[] = [{ id: first.id, url: first.url, bytes: Buffer.from('1') }];
      const outcomes: string[] = [];
      for (const [i, delay] of [0, 15, 30, 60, 100, 200].entries()) {
        const bytes = randomBytes(6 * MiB + i);
        const p = await placeholder(s, key, entry.id, 'end.bin', bytes);
        const req = openUpload(p.url, bytes.length, bytes);
        req.end();
        // Kill at a different moment each time: while the last bytes land, while they are checked
        // and placed, or after the answer.
        await new Promise((r) => setTimeout(r, delay));
        await s.kill('SIGKILL');
        await s.restart();
        const before = history.map((h) => h.id).reverse();
        const seen = await versions(s, key, entry.id, 'end.bin');
        if (seen.current === p.id) {
          outcomes.push('current');
          expect(seen).toEqual({ current: p.id, stored: true, previous: before });
        } else {
          outcomes.push(`not yet (held ${await heldOffset(p.url)})`);
          expect(seen).toEqual({ current: before[0], stored: true, previous: before.slice(1) });
          const done = await resume(p.url, bytes);
          expect(done.status, JSON.stringify(done.body)).toBe(200);
          expect(await versions(s, key, entry.id, 'end.bin')).toEqual({ current: p.id, stored: true, previous: before });
        }
        history.push({ id: p.id, url: p.url, bytes });
        for (const h of history) expect((await fetchBytes(h.url)).equals(h.bytes)).toBe(true);
      }
      // In the report, not the console: a passing run stays quiet.
      test.info().annotations.push({ type: 'outcomes', description: `kill outcomes (${database}): ${outcomes.join(', ')}` });
      await healthy(s);
    });
  });
});
