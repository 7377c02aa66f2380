// While a backup runs, no blob is freed: its plan lists the bytes of every version stored at its
// snapshot, and streams them afterwards, so a version deleted meanwhile must keep its bytes until the
// backup has sent them. A backup holds a row of job_leases named `backup:<id>`, taken before its
// snapshot and renewed while it streams; freeBlobs (lib/silo/files/blobs.ts) frees nothing while
// one is live (BACKUP_RUNNING), and the sweep of unreferenced blobs frees those bytes later. A
// server killed mid-backup leaves a lease that lapses after LEASE_MS.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import { Prisma } from '../../db/generated/client';

export const LEASE_MS = 5 * 60_000;
const RENEW_MS = 60_000;

/** SQL: true while some backup holds its lease (in freeBlobs' reference count). */
export const BACKUP_RUNNING = Prisma.sql`EXISTS (SELECT 1 FROM job_leases WHERE name LIKE 'backup:%' AND expires_at > now())`;

export interface BackupLease {
  release(): Promise<void>;
}

/** Takes a backup's lease (committed before it returns: a snapshot taken after sees it) and renews it until released. */
export async function takeBackupLease(db: Db): Promise<BackupLease> {
  const name = `backup:${randomUUID()}`;
  const renew = () => db.$executeRaw`
    INSERT INTO job_leases (name, holder, expires_at) VALUES (${name}, ${randomUUID()}::uuid, now() + ${LEASE_MS}::int * interval '1 millisecond')
    ON CONFLICT (name) DO UPDATE SET expires_at = EXCLUDED.expires_at`;
  await renew();
  const timer = setInterval(() => void renew().catch(() => {}), RENEW_MS);
  timer.unref();
  let released: Promise<void> | undefined;
  return {
    release() {
      clearInterval(timer);
      released ??= db.$executeRaw`DELETE FROM job_leases WHERE name = ${name}`.then(() => undefined);
      return released;
    },
  };
}
