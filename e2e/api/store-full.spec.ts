// A blob store on a real disk that fills up or turns read-only under a running server: every
// failed request answers the contract's error body (507 / 503, never a bare 500), nothing is
// stored, deletes still answer 204, and the bytes they could not free are swept after a restart.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { bearer, expect, test } from '../fixtures';
import { startServer } from '../fixtures/server';
import { createEntry, expectError, sha256 } from './helpers';
import { call, fsck, heldOffset, ownerKey, placeholder, putRaw } from './store-faults-helpers';

const MiB = 1024 * 1024;
const ROOT = path.resolve(__dirname, '..', '..');

/** The body as the contract wants it: JSON error shape, no stack, path or SQL. */
function contractError(res: { status: number; body: string }, status: number, key: string) {
  expect(res.status, res.body).toBe(status);
  const body = JSON.parse(res.body);
  expect(body).toEqual({ code: status, key, message: expect.any(String) });
  expect(res.body).not.toMatch(/at .*\.(ts|js):\d+|node_modules|\/tmp\/|\/work\/|SELECT /);
}

test.describe('a full or read-only blob store', () => {
  test('a disk that refuses the bytes (ENOSPC from /dev/full) answers 507 and the placeholder stays as it was', async ({
    server,
    request,
    newOwner,
  }) => {
    const { liveKey } = await newOwner();
    const entry = await createEntry(request, liveKey);
    const bytes = randomBytes(3 * MiB);
    const created = await request.post(`/silo/v1/entries/${entry.id}/files`, {
      headers: bearer(liveKey),
      data: { name: 'full.bin', mime: 'application/octet-stream', sha256: sha256(bytes), size: bytes.length },
    });
    const p = await created.json();
    // The held copy of this upload is a link to /dev/full: the kernel answers every write ENOSPC.
    await symlink('/dev/full', path.join(server.storageDir, 'held', p.id));
    contractError(await putRaw(p.url, bytes), 507, 'insufficient_storage');
    expect(await heldOffset(p.url)).toBe(0);
    await expectError(await request.get(`/silo/v1/entries/${entry.id}/files/${p.id}`, { headers: bearer(liveKey) }), 409, 'not_stored');
    const again = await putRaw(p.url, bytes);
    expect(again.status, again.body).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ stored: true, hash: sha256(bytes) });
  });

  /** A 16 MiB tmpfs to hold the store, or undefined where this process may not mount. */
  function tmpfs(dir: string): { ro(): void; rw(): void; umount(): void } | undefined {
    const mount = (...args: string[]) => execFileSync('mount', args, { stdio: 'pipe' });
    try {
      mount('-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', dir);
    } catch {
      return undefined;
    }
    return {
      ro: () => mount('-o', 'remount,ro', dir),
      rw: () => mount('-o', 'remount,rw', dir),
      umount: () => execFileSync('umount', [dir], { stdio: 'pipe' }),
    };
  }

  test('a store that fills up, then turns read-only, under a running server', async ({ database }) => {
    test.setTimeout(300_000);
    const dir = path.join(ROOT, 'tmp', `store-mount-${randomBytes(4).toString('hex')}`);
    await mkdir(dir, { recursive: true });
    const disk = tmpfs(dir);
    test.skip(!disk, 'needs permission to mount a tmpfs (root with CAP_SYS_ADMIN)');
    // Every blob in the store (none in the database, however small): the store is what fails here.
    const s = await startServer({ database, env: { STORAGE_DIR: dir, SMALL_BLOB_MAX_BYTES: '0' } });
    try {
      const key = await ownerKey(s);
      const entry = (await call(s, key, 'POST', '/silo/v1/entries', { name: 'faults' })).body;
      const inline = (name: string, text: string) =>
        call(s, key, 'POST', `/silo/v1/entries/${entry.id}/files`, { name, data: Buffer.from(text).toString('base64') });
      const kept = (await inline('kept.txt', 'kept')).body;
      const doomed = (await inline('doomed.txt', 'deleted while the disk is read-only')).body;

      // Full: 24 MiB do not fit in 16. The upload fails mid-write, gives the space back, and stays resumable.
      const big = randomBytes(24 * MiB);
      const p = await placeholder(s, key, entry.id, 'big.bin', big);
      contractError(await putRaw(p.url, big), 507, 'insufficient_storage');
      expect(await heldOffset(p.url)).toBe(0);
      expect((await call(s, key, 'GET', `/silo/v1/entries/${entry.id}/files/${p.id}`)).status).toBe(409);
      const small = randomBytes(4 * MiB);
      const fits = await placeholder(s, key, entry.id, 'small.bin', small);
      expect((await putRaw(fits.url, small)).status).toBe(200);

      // Read-only: writes answer 503 and store nothing; reads work; a delete still answers 204.
      disk!.ro();
      const before = (await call(s, key, 'GET', `/silo/v1/entries/${entry.id}/files`)).body.list.length;
      const refused = await inline('new.txt', 'not now');
      contractError({ status: refused.status, body: JSON.stringify(refused.body) }, 503, 'storage_unavailable');
      const ph = await placeholder(s, key, entry.id, 'ro.bin', small);
      contractError(await putRaw(ph.url, small), 503, 'storage_unavailable');
      const ready = await fetch(`${s.url}/utils/v1/ready`);
      contractError({ status: ready.status, body: await ready.text() }, 503, 'not_ready');
      expect((await call(s, key, 'DELETE', `/silo/v1/entries/${entry.id}/files/${doomed.id}`)).status).toBe(204);
      expect((await call(s, key, 'GET', `/silo/v1/entries/${entry.id}/files/${doomed.id}`)).status).toBe(404);
      expect(Buffer.from(await (await fetch(kept.url)).arrayBuffer()).toString()).toBe('kept');
      const after = (await call(s, key, 'GET', `/silo/v1/entries/${entry.id}/files`)).body.list;
      expect(after.length).toBe(before); // the refused placeholder ro.bin is listed, the deleted file is not
      const blob = path.join(dir, 'sha256', doomed.hash.slice(0, 2), doomed.hash);
      expect(existsSync(blob)).toBe(true);

      // Writable again: the sweep at start-up frees what the delete could not.
      disk!.rw();
      await s.restart();
      await expect.poll(() => existsSync(blob), { timeout: 60_000 }).toBe(false);
      expect((await fetch(`${s.url}/utils/v1/ready`)).status).toBe(200);
      await s.kill('SIGTERM');
      const check = await fsck(s);
      expect(check.code, check.out).toBe(0);
      expect(check.out).toContain('unreferenced: 0 blobs');
    } finally {
      await s.stop();
      disk?.umount();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
