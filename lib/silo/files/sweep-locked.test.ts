// Blobs on S3 with Object Lock through the store the domain uses (DatabaseStore): a delete refused
// by a lock (AWS 403 AccessDenied, MinIO 400 InvalidRequest) keeps the blob and its row, logged, and
// a later sweep tries again; any other error stays an error; a lock reaches the bucket only for
// bytes the database does not keep. The lock's answers are given at the S3 client seam (no local
// server implements Object Lock); everything else is a real s3rver and a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import { DatabaseStore, storeIn } from '../../storage/database-store';
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
  let s3Store: S3Store;
  beforeAll(async () => {
    w = await testWorld({ database });
    ({ scope, entryId } = await createTestEntry(w.db.prisma));
    bucket = await s3.createBucket('sweep-locked');
    const client = s3.client();
    seam = clientSeam(client);
    s3Store = new S3Store({ client, bucket, objectLock: 'compliance' });
    store = new DatabaseStore(w.db.prisma, s3Store, { keepUpTo: 0 });
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

  it('passes a lock on to the bucket for bytes the database does not keep, from a transaction too; kept bytes ask S3 nothing', async () => {
    const keeping = new DatabaseStore(w.db.prisma, s3Store, { keepUpTo: 64 });
    const lock = { mode: 'compliance' as const, retainUntil: new Date('2036-01-01T00:00:00Z'), legalHold: true };
    const small = Buffer.from('kept in the database');
    const large = Buffer.alloc(100, 1);
    seam.answer((r) => asks(r, 'retention') || asks(r, 'legal-hold'), { status: 200 });
    const before = seam.sent.length;
    await keeping.put(sha(small), small, { lock });
    await keeping.put(sha(large), large, { lock });
    await w.db.prisma.$transaction(async (tx) => {
      const view = storeIn(keeping, tx);
      await view.lock?.(sha(small), lock);
      await view.lock?.(sha(large), { ...lock, retainUntil: new Date('2037-01-01T00:00:00Z') });
    });
    const sent = seam.sent.slice(before);
    expect(sent.filter((r) => r.path.endsWith(sha(small)))).toEqual([]);
    const onLarge = sent.filter((r) => r.path.endsWith(sha(large)));
    expect(onLarge[0].headers['x-amz-object-lock-mode']).toBe('COMPLIANCE');
    expect(onLarge.some((r) => asks(r, 'retention') && r.body?.includes('2037-01-01T00:00:00Z'))).toBe(true);
  });
});
