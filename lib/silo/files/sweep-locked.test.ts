// Freeing blobs on S3 with Object Lock: a delete refused by a lock (AWS 403 AccessDenied, MinIO 400
// InvalidRequest) keeps the blob and its row, logged, and a later sweep tries again; any other error
// stays an error. The refusals are given at the S3 client seam (no local server implements Object
// Lock); everything else is a real s3rver and a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import { DatabaseStore } from '../../storage/database-store';
import { S3Store } from '../../storage/s3-store';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { TEST_FILE_LIMITS as LIMITS, parseFileInput as parse, sha256 as sha } from '../../testing/files';
import { loggedSoFar } from '../../testing/log-capture';
import { createTestEntry } from '../../testing/owner';
import { asks, AWS_LOCK_REFUSAL, clientSeam, MINIO_LOCK_REFUSAL, type Reply, s3Error, versionsOf } from '../../testing/s3-client-seam';
import { startS3rver, type LocalS3 } from '../../testing/s3rver';
import { createFile } from './create-file';
import { deleteFile } from './delete-file';
import { sweepBlobs } from './sweep-blobs';

const b64 = (s: string) => Buffer.from(s).toString('base64');
let s3: LocalS3;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3?.stop());

describe.each(testDatabases())('sweep under S3 Object Lock (%s)', (database) => {
  let w: TestWorld;
  let scope: Scope;
  let entryId: string;
  let bucket: string;
  let store: DatabaseStore;
  let seam: ReturnType<typeof clientSeam>;
  beforeAll(async () => {
    w = await testWorld({ database });
    ({ scope, entryId } = await createTestEntry(w.db.prisma));
    bucket = await s3.createBucket('sweep-locked');
    const client = s3.client();
    seam = clientSeam(client);
    store = new DatabaseStore(w.db.prisma, new S3Store({ client, bucket, objectLock: 'compliance' }), { keepUpTo: 0 });
  });
  afterAll(() => w?.close());

  /** A stored file deleted: its blob now unreferenced, with one version on S3 that deletes answer with `reply`. */
  const unreferenced = async (text: string, reply: Reply) => {
    const { file } = await createFile({
      db: w.db.prisma,
      store,
      scope,
      entryId,
      input: parse({ name: `${text}.txt`, data: b64(text) }),
      limits: LIMITS,
    });
    const key = `sha256/${sha(text)}`;
    seam.answer((r) => asks(r, 'versions') && r.query.prefix === key, versionsOf(bucket, key, ['v1']));
    seam.answer((r) => r.method === 'DELETE' && r.path === `/${bucket}/${key}`, reply);
    await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store, file });
    return file.hash;
  };
  const rowOf = (hash: string) => w.db.prisma.blob.count({ where: { hash } });

  it.each([
    ['AWS: 403 AccessDenied', AWS_LOCK_REFUSAL],
    ['MinIO: 400 InvalidRequest', MINIO_LOCK_REFUSAL],
  ])('a lock refusal (%s) keeps the blob and its row, logged, and the sweep tries again until the lock ends', async (form, refusal) => {
    const hash = await unreferenced(`locked ${form}`, refusal);
    // The file's delete went through; its bytes stay.
    expect(await store.exists(hash)).toBe(true);
    expect(await rowOf(hash)).toBe(1);
    expect(loggedSoFar().some((l) => String(l.msg).includes('blob kept') && l.hash === hash)).toBe(true);

    const before = seam.sent.length;
    const swept = await sweepBlobs(w.db.prisma, store);
    expect(swept.freed).toBe(0);
    expect(swept.unreferenced).toBeGreaterThanOrEqual(1);
    expect(seam.sent.slice(before).some((r) => r.method === 'DELETE' && r.query.versionId === 'v1')).toBe(true);
    expect(await store.exists(hash)).toBe(true);
    expect(await rowOf(hash)).toBe(1);

    // The retention ended: the same sweep frees it (s3rver deletes it for real).
    seam.pass((r) => r.method === 'DELETE' && r.path === `/${bucket}/sha256/${hash}`);
    expect((await sweepBlobs(w.db.prisma, store)).freed).toBe(1);
    expect(await rowOf(hash)).toBe(0);
    expect(await store.exists(hash)).toBe(false);
  });

  it('any other refusal fails the sweep, and keeps the row for the next', async () => {
    const denied: Reply = { status: 403, body: s3Error('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist.') };
    const hash = await unreferenced('refused otherwise', denied);
    await expect(sweepBlobs(w.db.prisma, store)).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    expect(await rowOf(hash)).toBe(1);
    expect(await store.exists(hash)).toBe(true);
    seam.pass((r) => r.method === 'DELETE' && r.path === `/${bucket}/sha256/${hash}`);
    expect((await sweepBlobs(w.db.prisma, store)).freed).toBe(1);
    expect(await store.exists(hash)).toBe(false);
  });
});
