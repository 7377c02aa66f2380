// The auditor's export read from a bucket (s3rver): the files store as the server makes it, small
// bytes in the database and the rest in S3.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseStore } from '../../storage/database-store';
import { S3Store } from '../../storage/s3-store';
import { testWorld, type TestWorld } from '../../testing/database';
import { SMALL_BLOB_LIMITS } from '../../testing/files';
import { startS3rver, type LocalS3 } from '../../testing/s3rver';
import { exportTo, fillWorkspace, key, period } from '../../testing/export-fixtures';
import { verifyExport } from './verify-export';
import { readExportZip } from './zip-structure';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-export-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the export on S3 (s3rver)', () => {
  let w: TestWorld;
  let s3: LocalS3;
  beforeAll(async () => {
    [w, s3] = await Promise.all([testWorld(), startS3rver()]);
  }, 180_000);
  afterAll(async () => {
    await w?.close();
    await s3?.stop();
  });

  it('reads the versions from the bucket, and verifies', { timeout: 60_000 }, async () => {
    // The files store as the server makes it (lib/storage/index.ts filesStore): small bytes in the database, the rest in the bucket.
    const bucket = new S3Store({ client: s3.client(), bucket: await s3.createBucket('export') });
    const store = new DatabaseStore(w.db.prisma, bucket, { keepUpTo: SMALL_BLOB_LIMITS.smallBlobBytes });
    const made = await fillWorkspace(w.db.prisma, store);
    const file = path.join(dir, 's3.zip');
    await exportTo(file, { db: w.db.prisma, store, chain: made.chain, period, key, actor: null, location: 'x' });
    const verdict = await verifyExport(file);
    expect(verdict.versions).toBe(made.files.length);
    expect(verdict.notes.join('\n')).toMatch(/key in manifest\.json/);
    const members = await readExportZip(file);
    expect(members.find((m) => m.name.includes(made.files[2].id))?.sha256).toBe(made.files[2].hash);
  });
});
