// S3 Object Lock for blobs (S3_OBJECT_LOCK=governance|compliance): the lock headers a placed blob is
// written with, lock() on a stored one (extend only, never shorten, never a bypass), and a delete
// that removes every version of a blob and takes a lock's refusal for "keep".
// A bucket with Object Lock is versioned: a plain DeleteObject only adds a delete marker and is
// never refused, so a blob is deleted version by version, and a locked version refuses.
import {
  DeleteObjectCommand,
  GetObjectLockConfigurationCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  type ObjectLockLegalHoldStatus,
  type ObjectLockMode,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
} from '@aws-sdk/client-s3';
import { BlobLocked, BlobMissing, type BlobLock } from '../blob-store';
import { isNotFound, type Bucket } from './bucket';

/** S3_OBJECT_LOCK: the strictest mode Silo writes (governance: every lock is governance, a bucket owner can still lift it). */
export type ObjectLockSetting = 'governance' | 'compliance';

/** The lock headers of a PutObject, CopyObject or CreateMultipartUpload. */
export interface LockParams {
  ObjectLockMode?: ObjectLockMode;
  ObjectLockRetainUntilDate?: Date;
  ObjectLockLegalHoldStatus?: ObjectLockLegalHoldStatus;
}

/** The S3 mode for a version's `mode` under the setting: compliance only when both say so. */
const s3Mode = (setting: ObjectLockSetting, mode: BlobLock['mode']): ObjectLockMode =>
  setting === 'compliance' && mode === 'compliance' ? 'COMPLIANCE' : 'GOVERNANCE';

/** The lock headers for `lock`; undefined when it asks nothing (no retention in the future, no hold). */
export function lockParams(setting: ObjectLockSetting, lock: BlobLock | undefined, now = Date.now()): LockParams | undefined {
  if (!lock) return undefined;
  const params: LockParams = {};
  // S3 refuses a retain-until date in the past: a retention that ended asks nothing.
  if (lock.mode && lock.retainUntil && lock.retainUntil.getTime() > now) {
    params.ObjectLockMode = s3Mode(setting, lock.mode);
    params.ObjectLockRetainUntilDate = lock.retainUntil;
  }
  if (lock.legalHold) params.ObjectLockLegalHoldStatus = 'ON';
  return Object.keys(params).length ? params : undefined;
}

/**
 * Sets or extends the lock of the current version of `key`. The retain-until date only grows and
 * the mode stays what it is while a retention runs (S3 lets governance become compliance only with
 * the bypass permission, which lock never uses; a later placement of the same bytes writes a
 * version of its own in the stricter mode). The legal hold is set to what `lock` says.
 */
export async function lockObject(bucket: Bucket, setting: ObjectLockSetting, key: string, lock: BlobLock, hash: string): Promise<void> {
  let head: Awaited<ReturnType<typeof headLock>>;
  try {
    head = await headLock(bucket, key);
  } catch (err) {
    if (isNotFound(err)) throw new BlobMissing(hash);
    throw err;
  }
  const want = lockParams(setting, { ...lock, legalHold: false });
  const now = Date.now();
  const running = head.retainUntil && head.retainUntil.getTime() > now ? head : undefined;
  if (want?.ObjectLockRetainUntilDate && (!running?.retainUntil || want.ObjectLockRetainUntilDate > running.retainUntil)) {
    await bucket.client.send(
      new PutObjectRetentionCommand({
        Bucket: bucket.name,
        Key: key,
        VersionId: head.versionId,
        Retention: { Mode: running?.mode ?? want.ObjectLockMode, RetainUntilDate: want.ObjectLockRetainUntilDate },
      }),
    );
  }
  if (lock.legalHold !== head.legalHold) {
    await bucket.client.send(
      new PutObjectLegalHoldCommand({
        Bucket: bucket.name,
        Key: key,
        VersionId: head.versionId,
        LegalHold: { Status: lock.legalHold ? 'ON' : 'OFF' },
      }),
    );
  }
}

async function headLock(bucket: Bucket, key: string) {
  const got = await bucket.client.send(new HeadObjectCommand({ Bucket: bucket.name, Key: key }));
  return {
    versionId: got.VersionId,
    mode: got.ObjectLockMode,
    retainUntil: got.ObjectLockRetainUntilDate,
    legalHold: got.ObjectLockLegalHoldStatus === 'ON',
  };
}

/** How a server refuses to delete a locked version: AWS 403 AccessDenied, MinIO 400 InvalidRequest. */
export function isLockRefusal(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  const status = e?.$metadata?.httpStatusCode;
  const code = e?.Code ?? e?.name;
  return (status === 403 && code === 'AccessDenied') || (status === 400 && code === 'InvalidRequest');
}

/**
 * Deletes every version of `key` (and its delete markers), older ones first and the current one
 * last: a version a lock keeps stops the delete there with BlobLocked, leaving the blob listed and
 * readable, so a later sweep tries again. Other errors are errors.
 */
export async function deleteAllVersions(bucket: Bucket, key: string, hash: string): Promise<void> {
  const versions: { id: string; latest: boolean }[] = [];
  let keyMarker: string | undefined;
  let versionMarker: string | undefined;
  do {
    const page = await bucket.client.send(
      new ListObjectVersionsCommand({ Bucket: bucket.name, Prefix: key, KeyMarker: keyMarker, VersionIdMarker: versionMarker }),
    );
    for (const v of [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])])
      if (v.Key === key) versions.push({ id: v.VersionId ?? 'null', latest: v.IsLatest === true });
    keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
    versionMarker = page.IsTruncated ? page.NextVersionIdMarker : undefined;
  } while (keyMarker !== undefined);
  versions.sort((a, b) => Number(a.latest) - Number(b.latest));
  for (const v of versions) {
    try {
      await bucket.client.send(new DeleteObjectCommand({ Bucket: bucket.name, Key: key, VersionId: v.id }));
    } catch (err) {
      if (isLockRefusal(err)) throw new BlobLocked(hash, { cause: err });
      if (!isNotFound(err)) throw err;
    }
  }
}

/** Object Lock is a bucket's from its creation: a bucket without it would refuse every locked write. */
export async function assertBucketLocks(bucket: Bucket, setting: ObjectLockSetting): Promise<void> {
  let enabled: string | undefined;
  try {
    enabled = (await bucket.client.send(new GetObjectLockConfigurationCommand({ Bucket: bucket.name }))).ObjectLockConfiguration
      ?.ObjectLockEnabled;
  } catch (err) {
    // AWS: 404 ObjectLockConfigurationNotFoundError; a server without Object Lock at all (s3rver): 501.
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (!isNotFound(err) && status !== 501 && (err as Error)?.name !== 'ObjectLockConfigurationNotFoundError') throw err;
  }
  if (enabled !== 'Enabled')
    throw new Error(
      `S3_OBJECT_LOCK=${setting}, but the bucket ${bucket.name} has no Object Lock: create the bucket with Object Lock enabled (docs/operations.md, S3 Object Lock)`,
    );
}
