// Jobs that one instance at a time should run (the periodic sweeps): a lease row per job. The
// sweeps are safe to run concurrently (every free takes its hash's lock); the lease only spares
// N instances listing the whole store N times.
import { randomUUID } from 'node:crypto';
import type { Db } from './client';

/** Runs `fn` when no other instance holds `name`'s lease; returns false when one does. */
export async function runExclusively(db: Db, name: string, ttlMs: number, fn: () => Promise<void>): Promise<boolean> {
  const holder = randomUUID();
  const got = await db.$queryRaw<{ holder: string }[]>`
    INSERT INTO job_leases (name, holder, expires_at) VALUES (${name}, ${holder}::uuid, now() + ${ttlMs}::int * interval '1 millisecond')
    ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
      WHERE job_leases.expires_at <= now()
    RETURNING holder::text`;
  if (!got.length) return false;
  try {
    await fn();
  } finally {
    await db.$executeRaw`DELETE FROM job_leases WHERE name = ${name} AND holder = ${holder}::uuid`;
  }
  return true;
}
