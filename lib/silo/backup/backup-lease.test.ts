// While a backup holds its lease no blob is freed — not by a delete, not by the sweep — so every
// version its snapshot listed can still be sent; once the lease is given back (or lapses), the
// sweep frees what nothing refers to.
import { describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, type TestWorld } from '../../testing/database';
import { TEST_FILE_LIMITS as LIMITS, parseFileInput as parse } from '../../testing/files';
import { withEntryWorld } from '../../testing/owner';
import { createFile } from '../files/create-file';
import { deleteFile } from '../files/delete-file';
import { sweepBlobs } from '../files/sweep-blobs';
import { takeBackupLease } from './backup-lease';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe.each(testDatabases())('the backup lease (%s)', (database) => {
  let w: TestWorld;
  let scope: Scope;
  let entryId: string;
  withEntryWorld(database, (made) => ({ w, scope, entryId } = made));
  const stored = async (name: string, text: string) =>
    (await createFile({ db: w.db.prisma, store: w.store, scope, entryId, input: parse({ name, data: b64(text) }), limits: LIMITS })).file;

  it("keeps a deleted version's bytes until the backup ends; the sweep frees them after", async () => {
    const file = await stored('a.txt', 'listed by a backup');
    const lease = await takeBackupLease(w.db.prisma);
    const second = await takeBackupLease(w.db.prisma); // two backups at once
    await deleteFile({ db: w.db.prisma, store: w.store, file, actor: TEST_ACTOR });
    expect(await w.store.exists(file.hash)).toBe(true);
    expect((await sweepBlobs(w.db.prisma, w.store)).freed).toBe(0);
    expect(await w.store.exists(file.hash)).toBe(true);
    await lease.release();
    await lease.release(); // twice is once
    expect(await w.store.exists(file.hash)).toBe(true); // the other backup still runs
    await second.release();
    expect((await sweepBlobs(w.db.prisma, w.store)).freed).toBe(1);
    expect(await w.store.exists(file.hash)).toBe(false);
  });

  it('a lease that lapses (a server killed mid-backup) keeps nothing', async () => {
    const file = await stored('b.txt', 'a lapsed lease');
    const lease = await takeBackupLease(w.db.prisma);
    await w.db.prisma.$executeRaw`UPDATE job_leases SET expires_at = now() - interval '1 second' WHERE name LIKE 'backup:%'`;
    await deleteFile({ db: w.db.prisma, store: w.store, file, actor: TEST_ACTOR });
    expect(await w.store.exists(file.hash)).toBe(false);
    await lease.release();
  });
});
