// A backup read from one bucket and restored into another (s3rver): the files store as the server
// makes it, small bytes in the database and the rest in S3, on both sides.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseStore } from '../../storage/database-store';
import { S3Store } from '../../storage/s3-store';
import { testWorld, type TestWorld } from '../../testing/database';
import { fillWorkspace } from '../../testing/export-fixtures';
import { SMALL_BLOB_LIMITS } from '../../testing/files';
import { type LocalS3, startS3rver } from '../../testing/s3rver';
import type { ZipMember } from '../export/zip-structure';
import { fsck, hasProblems } from '../fsck';
import { checkBackup } from './check-backup';
import { createBackup } from './create-backup';
import { restoreBackup } from './restore-backup';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-backup-s3-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a backup on S3 (s3rver), restored onto S3', () => {
  let source: TestWorld;
  let target: TestWorld;
  let s3: LocalS3;
  beforeAll(async () => {
    [source, target, s3] = await Promise.all([testWorld(), testWorld(), startS3rver()]);
  }, 180_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
    await s3?.stop();
  });

  it('reads the versions from one bucket and places them in another; fsck is clean there', { timeout: 60_000 }, async () => {
    const keep = SMALL_BLOB_LIMITS.smallBlobBytes;
    const from = new DatabaseStore(source.db.prisma, new S3Store({ client: s3.client(), bucket: await s3.createBucket('from') }), {
      keepUpTo: keep,
    });
    const made = await fillWorkspace(source.db.prisma, from);
    const file = path.join(dir, 's3.zip');
    const { zip } = await createBackup({ db: source.db.prisma, store: from, kind: 'pglite' });
    await pipeline(zip.stream, createWriteStream(file));

    const bucket = new S3Store({ client: s3.client(), bucket: await s3.createBucket('to') });
    const blobs: ZipMember[] = [];
    const checked = await checkBackup(file, { blob: async (m) => void blobs.push(m) });
    const report = await restoreBackup({
      file,
      checked,
      db: target.db,
      store: bucket,
      keepUpTo: keep,
      blobOffsets: async function* () {
        yield* blobs;
      },
    });
    expect(report.blobs.inStore).toBe(1); // the 300 KiB version; the small ones went into the database
    expect(await bucket.exists(made.files[2].hash)).toBe(true);
    const to = new DatabaseStore(target.db.prisma, bucket, { keepUpTo: keep, cache: false });
    for (const f of made.files) {
      const chunks: Buffer[] = [];
      for await (const b of await to.read(f.hash)) chunks.push(b as Buffer);
      expect(Buffer.concat(chunks).length, f.name).toBe(Number(f.size));
    }
    const r = await fsck(target.db.prisma, to);
    expect(hasProblems(r), JSON.stringify(r)).toBe(false);
  });
});
