// Files on the S3 store through the domain code: inline bytes, a placeholder upload that breaks
// off and is resumed by another store instance (another server process), a checksum failure,
// deduplication and freeing, and the upload sweep — on PGlite and a local s3rver.
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestOwner } from '../../testing/owner';
import type { Scope } from '../../db/scope';
import { S3Store } from '../../storage/s3-store';
import { testWorld, type TestWorld } from '../../testing/database';
import { startS3rver, type LocalS3 } from '../../testing/s3rver';
import { createEntry } from '../create-entry';
import { createFile } from './create-file';
import { TEST_FILE_LIMITS as LIMITS, parseFileInput as parse, sha256 as sha } from '../../testing/files';
import { deleteFile } from './delete-file';
import { receiveUpload } from './receive-upload';
import { sweepUploads } from './sweep-uploads';
import { uploadProgress } from './upload-window';
import { paused, readAll, takeOver } from '../../testing/upload-sources';
import { TEST_ACTOR } from '../../testing/actor';

const MiB = 1024 * 1024;

let w: TestWorld;
let s3: LocalS3;
let bucket: string;
let scope: Scope;
let entryId: string;
/** A fresh S3Store on the one bucket, as each server process would have. */
const instance = () => new S3Store({ client: s3.client(), bucket });

beforeAll(async () => {
  [w, s3] = await Promise.all([testWorld(), startS3rver()]);
  bucket = await s3.createBucket('silo');
  const owner = await createTestOwner(w.db.prisma, 'Acme');
  scope = { owners: [owner.id], sandbox: false };
  entryId = (
    await createEntry({
      actor: TEST_ACTOR,
      db: w.db.prisma,
      target: { ownerId: owner.id, sandbox: false },
      input: { folder: '', name: 'e', meta: {} },
    })
  ).entry.id;
});
afterAll(async () => {
  await w?.close();
  await s3?.stop();
});

const create = (input: object) => createFile({ db: w.db.prisma, store: instance(), scope, entryId, input: parse(input), limits: LIMITS });
const blobsInStore = async () => {
  const out: string[] = [];
  for await (const b of instance().listBlobs()) out.push(b.hash);
  return out.sort();
};
async function* breaksAfter(b: Buffer) {
  yield b;
  throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}

it('stores inline bytes, and a placeholder upload resumed by another instance; identical bytes once', async () => {
  const small = Buffer.from('<Invoice>1</Invoice>');
  const inline = await create({ name: 'a.xml', data: small.toString('base64') });
  expect(inline.file.stored).toBe(true);

  const big = Buffer.alloc(12 * MiB + 7, 5);
  const p = (await create({ name: 'scan.pdf', mime: 'application/pdf', sha256: sha(big), size: big.length })).file;
  const cut = 9 * MiB + 1;
  await expect(
    receiveUpload({ db: w.db.prisma, store: instance(), file: p, source: breaksAfter(big.subarray(0, cut)), contentRange: null }),
  ).rejects.toThrow('aborted');
  expect(await instance().heldSize(p.id)).toBe(cut);
  const done = await receiveUpload({
    db: w.db.prisma,
    store: instance(),
    file: p,
    source: [big.subarray(cut)],
    contentRange: `bytes ${cut}-${big.length - 1}/${big.length}`,
  });
  if (done.kind !== 'stored') throw new Error('not stored');
  expect(done.file.stored).toBe(true);
  const back: Buffer[] = [];
  for await (const c of await instance().read(sha(big))) back.push(c as Buffer);
  expect(Buffer.concat(back).equals(big)).toBe(true);

  // The same bytes inline again: still one blob each.
  await create({ name: 'b.xml', data: small.toString('base64') });
  expect(await blobsInStore()).toEqual([sha(small), sha(big)].sort());
  expect(await instance().listHeld()).toEqual([]);

  // Deleting the only file with those bytes frees them.
  await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: instance(), file: done.file });
  expect(await blobsInStore()).toEqual([sha(small)]);
});

it('bytes with another checksum are dropped and never placed; the sweep drops abandoned held copies', async () => {
  const bytes = Buffer.alloc(3 * MiB, 1);
  const declared = sha(Buffer.from('something else'));
  const p = (await create({ name: 'x.bin', mime: 'application/octet-stream', sha256: declared, size: bytes.length })).file;
  await expect(receiveUpload({ db: w.db.prisma, store: instance(), file: p, source: [bytes], contentRange: null })).rejects.toMatchObject({
    key: 'checksum_mismatch',
  });
  expect(await instance().heldSize(p.id)).toBe(0);
  expect(await instance().exists(declared)).toBe(false);
  expect(await instance().exists(sha(bytes))).toBe(false);

  await instance().receive('inline-leftover', [Buffer.from('x')], { offset: 0, maxBytes: 10 });
  await receiveUpload({
    db: w.db.prisma,
    store: instance(),
    file: p,
    source: breaksAfter(bytes.subarray(0, MiB)),
    contentRange: null,
  }).catch(() => {});
  expect(await sweepUploads(w.db.prisma, instance(), new Date(Date.now() + 2 * 3600 * 1000))).toBe(2);
  expect(await instance().listHeld()).toEqual([]);
});

it('a takeover resumes at the durable parts; the stalled holder can neither add a part nor complete', async () => {
  const bytes = randomBytes(30 * MiB);
  const db = w.db.prisma;
  const p = (await create({ name: 'big.bin', mime: 'application/octet-stream', sha256: sha(bytes), size: bytes.length })).file;
  const range = (from: number) => `bytes ${from}-${bytes.length - 1}/${bytes.length}`;
  await receiveUpload({
    db,
    store: instance(),
    file: p,
    source: [bytes.subarray(0, 9 * MiB)],
    contentRange: `bytes 0-${9 * MiB - 1}/${bytes.length}`,
  });
  // A fills its second 8 MiB part (durable: up to 16 MiB), holds 1 MiB more, and stalls past its lease.
  const a = paused(bytes.subarray(9 * MiB, 17 * MiB), bytes.subarray(17 * MiB));
  const stalled = receiveUpload({ db, store: instance(), file: p, source: a.source, contentRange: range(9 * MiB) });
  stalled.catch(() => {});
  await a.sending;
  const durable = 16 * MiB;
  await expect.poll(async () => (await uploadProgress(db, instance(), p)).offset, { timeout: 10_000, interval: 20 }).toBe(durable);
  // B takes the lapsed lease over and resumes at the durable offset: the held parts are not received again.
  const b = paused(bytes.subarray(durable, durable + 10), bytes.subarray(durable + 10));
  const resumed = takeOver(db, p.id, () =>
    receiveUpload({ db, store: instance(), file: p, source: b.source, contentRange: range(durable) }),
  );
  await b.sending;
  // A wakes up with enough bytes for a third part: refused (409), and what B holds is unchanged.
  a.go();
  const refused = await stalled.catch((err) => err);
  expect(refused).toMatchObject({ key: 'upload_in_progress', status: 409 });
  expect(Number(refused.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
  expect((await uploadProgress(db, instance(), p)).offset).toBe(durable);
  // A recorded no part of its own after the takeover: B's state object is the only one.
  const states = await s3.client().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `held/${p.id}/state` }));
  expect(states.Contents?.map((o) => o.Key)).toHaveLength(1);
  b.go();
  expect((await resumed).kind).toBe('stored');
  expect(sha(await readAll(await instance().read(sha(bytes))))).toBe(sha(bytes));
});
