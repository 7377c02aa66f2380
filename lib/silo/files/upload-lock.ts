// One upload at a time per placeholder, so two racing uploads never mix their bytes: a lease row
// in upload_leases, which every instance on one database sees. The holder renews it every couple
// of seconds for as long as its request is open; an instance that dies mid-upload stops renewing,
// so its lease lapses within LEASE_MS and another instance takes over and resumes from the held
// bytes. Each taking draws a new, higher `generation`: the fencing token that the held copy's
// writes and the completion carry, so a holder that only stalled past its lease can neither add
// to nor complete what its successor now holds (receive-upload.ts, storage/s3/held.ts).
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { processAlive } from '../../db/data-dir-lock';
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import { ApiError } from '../../errors';
import { fileNotFound } from './find-file';

export interface UploadLease {
  fileId: string;
  holder: string;
  /** the fencing token: higher for every later holder of this file's lease */
  generation: number;
  /** the file row as it was when the lease was taken (fresher than what the route loaded) */
  file: File;
  /** paces the renewals (half of it, at most RENEW_EVERY_MS) */
  idleMs: number;
  /** set when a renewal found the lease gone: the file was deleted, or the lease lapsed and was taken */
  lost?: 'deleted' | 'taken';
  /** taken over from a holder whose lease lapsed (it died, or stalled): see receive-upload.ts */
  tookOver: boolean;
}

/**
 * A lease lapses this long after its last renewal. Short, so a holder that died frees the upload
 * within seconds (issue 20: ≤ 15 s after its last byte); a live holder renews it every
 * RENEW_EVERY_MS for as long as its request is open, so a slow client keeps it until the upload's
 * own idle timeout ends the request.
 */
export const LEASE_MS = 10_000;
const RENEW_EVERY_MS = 2_000;
const renewEveryMs = (idleMs: number) => Math.min(RENEW_EVERY_MS, idleMs / 2);

/** 409 upload_in_progress with Retry-After: the seconds until the lease lapses unless renewed (at least 1). */
export const uploadBusy = (retryAfterMs = LEASE_MS) =>
  new ApiError('upload_in_progress', 'Another upload to this file is in progress; retry when it ends', {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  });

/** A holder's write refused because its lease is gone: 404 if the file was deleted, else 409. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

export const isLeaseLost = (err: unknown) => (err as Error)?.name === 'LeaseLost';

/**
 * Takes the lease on `fileId` or throws 409 upload_in_progress (404 when the file is gone).
 * The file row is read FOR SHARE in the same transaction: a delete of the file either commits
 * first (and this finds no row) or waits for this lease and then sees it (delete-file.ts).
 */
export async function acquireUploadLease(db: Db, fileId: string, idleMs: number): Promise<UploadLease> {
  const holder = randomUUID();
  const ms = LEASE_MS;
  const file = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM files WHERE id = ${fileId}::uuid FOR SHARE`;
    if (!rows.length) throw fileNotFound();
    // A holder that is a dead process of this host writes no more: its lease is free at once and
    // its held bytes are safe to build on (no takeover). Anyone else's lease holds until it lapses.
    const current = await tx.$queryRaw<{ instance: string }[]>`SELECT instance FROM upload_leases WHERE file_id = ${fileId}::uuid`;
    const deadHere = current.length > 0 && isDeadProcessOfThisHost(current[0].instance);
    // xmax is 0 on a row this statement inserted, non-zero on one it updated (a lapsed lease).
    // EXCLUDED.generation is the sequence's next value, drawn for the row this statement proposed.
    const got = await tx.$queryRaw<{ took_over: boolean; generation: bigint }[]>`
      INSERT INTO upload_leases (file_id, holder, instance, expires_at)
        VALUES (${fileId}::uuid, ${holder}::uuid, ${THIS_INSTANCE}, now() + ${ms}::int * interval '1 millisecond')
      ON CONFLICT (file_id) DO UPDATE SET holder = EXCLUDED.holder, instance = EXCLUDED.instance,
        expires_at = EXCLUDED.expires_at, generation = EXCLUDED.generation
        WHERE upload_leases.expires_at <= now() OR ${deadHere}
      RETURNING (xmax <> 0) AS took_over, generation`;
    if (!got.length) throw uploadBusy(await msLeft(tx, fileId));
    return {
      file: await tx.file.findUniqueOrThrow({ where: { id: fileId } }),
      tookOver: got[0].took_over && !deadHere,
      generation: Number(got[0].generation),
    };
  });
  return { fileId, holder, generation: file.generation, file: file.file, idleMs, tookOver: file.tookOver };
}

/** How long until the lease on `fileId` lapses unless renewed (Retry-After of a 409). */
async function msLeft(db: Pick<Db, '$queryRaw'>, fileId: string): Promise<number> {
  const rows = await db.$queryRaw<{ ms: number }[]>`
    SELECT (extract(epoch FROM expires_at - now()) * 1000)::float8 AS ms FROM upload_leases WHERE file_id = ${fileId}::uuid`;
  return rows[0]?.ms ?? 0;
}

/** 409 upload_in_progress for `fileId`, its Retry-After read from the lease now held. */
export async function uploadBusyNow(db: Db, fileId: string): Promise<ApiError> {
  return uploadBusy(await msLeft(db, fileId).catch(() => LEASE_MS));
}

/**
 * The fence a holder's writes pass: resolves while `lease` is still this holder's (renewing it),
 * else throws LeaseLost. The held copy's stores call it before each durable step.
 */
export async function assertLeaseHeld(db: Db, lease: UploadLease): Promise<void> {
  const state = lease.lost ?? (await renewUploadLease(db, lease));
  if (state === 'held') return;
  lease.lost ??= state;
  throw new LeaseLost(`the upload lease of ${lease.fileId} (generation ${lease.generation}) is ${state}`);
}

/** 'held' while the lease is still ours; else why not: the file was deleted, or the lease lapsed and another upload took it. */
export async function renewUploadLease(db: Db, lease: UploadLease): Promise<'held' | 'deleted' | 'taken'> {
  const renewed = await db.$executeRaw`
    UPDATE upload_leases l SET expires_at = now() + ${LEASE_MS}::int * interval '1 millisecond'
    WHERE l.file_id = ${lease.fileId}::uuid AND l.holder = ${lease.holder}::uuid AND l.generation = ${lease.generation}
      AND EXISTS (SELECT 1 FROM files f WHERE f.id = l.file_id)`;
  if (renewed === 1) return 'held';
  return (await db.file.findUnique({ where: { id: lease.fileId }, select: { id: true } })) ? 'taken' : 'deleted';
}

export async function releaseUploadLease(db: Db, lease: UploadLease): Promise<void> {
  // If this fails (database gone), the lease lapses on its own.
  await db.$executeRaw`DELETE FROM upload_leases WHERE file_id = ${lease.fileId}::uuid AND holder = ${lease.holder}::uuid`.catch(() => {});
}

/**
 * Runs `fn` holding the lease on `fileId`, renewed every few seconds for as long as `fn` runs
 * (re-reading a large held copy or placing it can take a while without a byte arriving); the
 * lease is released however `fn` ends. `fn` sees `lease.lost` if a renewal finds it gone.
 */
export async function withUploadLease<T>(db: Db, fileId: string, idleMs: number, fn: (lease: UploadLease) => Promise<T>): Promise<T> {
  const lease = await acquireUploadLease(db, fileId, idleMs);
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renewing.then(async () => {
      const state = await renewUploadLease(db, lease).catch(() => 'held' as const); // a hiccup: try again next time
      if (state !== 'held') lease.lost ??= state;
    });
  }, renewEveryMs(idleMs));
  timer.unref();
  try {
    return await fn(lease);
  } finally {
    clearInterval(timer);
    await renewing;
    await releaseUploadLease(db, lease);
  }
}

/** Whether some instance is receiving bytes for `fileId` now: its held copy must stay (sweep-uploads). */
export async function isUploadLeased(db: Db, fileId: string): Promise<boolean> {
  const rows = await db.$queryRaw<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM upload_leases WHERE file_id = ${fileId}::uuid AND expires_at > now()`;
  return rows[0].n > 0;
}

/** This process, as a lease records it: host/pid. */
const THIS_INSTANCE = `${os.hostname()}/${process.pid}`;

/**
 * Start-up: leases held by processes of this host that are gone (a crash, a SIGKILL) can be
 * written by nobody any more, so they are freed at once and their uploads resume where they
 * stopped, instead of waiting for the lease to lapse and then starting over (the takeover rule
 * above, which guards against holders on other hosts that may only have stalled). A lease with
 * this process's own pid is a predecessor's too: a process that has just started holds none (a
 * container restarted under the same hostname often gets the same pid). On the embedded database
 * every lease is this host's. Returns how many were freed.
 */
export async function releaseLeasesOfDeadProcesses(db: Db): Promise<number> {
  const rows = await db.$queryRaw<
    { instance: string }[]
  >`SELECT DISTINCT instance FROM upload_leases WHERE instance LIKE ${`${os.hostname()}/%`}`;
  let freed = 0;
  for (const { instance } of rows) {
    if (instance === THIS_INSTANCE || isDeadProcessOfThisHost(instance))
      freed += await db.$executeRaw`DELETE FROM upload_leases WHERE instance = ${instance}`;
  }
  return freed;
}

/** A lease's process (host/pid) that is of this host and no longer runs. */
function isDeadProcessOfThisHost(instance: string): boolean {
  const host = os.hostname();
  if (!instance.startsWith(`${host}/`)) return false;
  const pid = Number(instance.slice(host.length + 1));
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid);
}
