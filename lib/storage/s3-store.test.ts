// What only the S3 store does: upload state that outlives the process, hash checks at commit.
// (Everything every store does is in store-suite.ts, run by s3.suite.test.ts.)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { patterned } from '../testing/patterned';
import { startS3rver, type LocalS3 } from '../testing/s3rver';
import { S3Store } from './s3-store';
import { readAll, sha } from './store-suite-helpers';

const MiB = 1024 * 1024;
let s3: LocalS3;
let bucket: string;
const store = () => new S3Store({ client: s3.client(), bucket });
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3?.stop());
beforeEach(async () => {
  bucket = await s3.createBucket('s3store');
});

const until = async (what: () => Promise<boolean>, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (await what()) return;
  throw new Error('timed out');
};

it('survives the process that held the upload: one killed mid-way is resumed here from its last full part', async () => {
  const total = 30 * MiB + 11;
  const sent = 20 * MiB + 5; // the child sends this much, then hangs until killed
  const tsx = createRequire(import.meta.url).resolve('tsx');
  const child = spawn(
    process.execPath,
    ['--import', tsx, path.join(__dirname, '../testing/s3-receive-child.ts'), s3.endpoint, bucket, 'crash', String(sent)],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    // Two 8 MiB parts are sent and recorded; the 4 MiB after them exist only in the child's memory.
    // s3rver rewrites an object in place (S3 replaces it whole), so a poll may catch the child's
    // state object half written: such a read counts as "not yet".
    await until(
      async () =>
        (await store()
          .heldSize('crash')
          .catch(() => -1)) ===
        16 * MiB,
      60_000,
    );
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
  const here = store();
  expect(await here.heldSize('crash')).toBe(16 * MiB);
  const got = await here.receive('crash', patterned(16 * MiB, total), { offset: 16 * MiB, maxBytes: total });
  const whole = Buffer.concat([...patterned(0, total)]);
  expect(got).toEqual({ size: total, hash: sha(whole) });
  await here.commitHeld('crash', got.hash);
  expect((await readAll(await store().read(got.hash))).equals(whole)).toBe(true);
});

it('never places bytes under a hash that is not theirs', async () => {
  const s = store();
  const bytes = Buffer.from('the held bytes');
  const other = createHash('sha256').update('other bytes').digest('hex');
  await s.receive('a', [bytes], { offset: 0, maxBytes: 100 });
  await expect(s.commitHeld('a', other)).rejects.toThrow(/has sha256/);
  // Staged for a declared hash the bytes turned out not to have: committing them under their real one fails too.
  const big = Buffer.alloc(9 * MiB, 3);
  await s.receive('b', [big], { offset: 0, maxBytes: big.length, expectedHash: other });
  await expect(s.commitHeld('b', sha(big))).rejects.toThrow(/staged for/);
  expect(await s.exists(other)).toBe(false);
  expect(await s.exists(sha(big))).toBe(false);
  expect(await s.heldSize('b')).toBe(big.length);
  for (const id of ['a', 'b']) await s.dropHeld(id);
  expect(await s.listHeld()).toEqual([]);
});

it('completes an upload staged for its declared hash straight to the blob, leaving nothing under held/', async () => {
  const s = store();
  const bytes = Buffer.alloc(17 * MiB + 3, 9);
  const hash = sha(bytes);
  await s.receive('c', [bytes.subarray(0, 10 * MiB), bytes.subarray(10 * MiB)], { offset: 0, maxBytes: bytes.length, expectedHash: hash });
  await s.commitHeld('c', hash);
  expect(await s.blobSize(hash)).toBe(bytes.length);
  expect(await s.listHeld()).toEqual([]);
  expect((await readAll(await s.read(hash, { start: 16 * MiB, end: 17 * MiB + 2 }))).equals(bytes.subarray(16 * MiB))).toBe(true);
});
