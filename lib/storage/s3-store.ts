// BlobStore on an S3 bucket (AWS or any S3-compatible server): sha256/<hash> for blobs, held/<id>/
// for uploads in progress (a multipart upload, a tail object and a state object, so any instance can
// resume them), silo-store.json for the database the bucket belongs to. Bytes stream both ways.
// With `objectLock` (S3_OBJECT_LOCK), blobs are placed and kept under S3 Object Lock (s3/object-lock.ts).
import { randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import {
  assertHash,
  BlobMissing,
  isSha256,
  StoreOfAnotherDatabase,
  type BlobInfo,
  type BlobLock,
  type BlobStore,
  type ByteRange,
  type PlaceOptions,
  type ReceiveOptions,
  type Received,
} from './blob-store';
import { Bucket, isPreconditionFailed } from './s3/bucket';
import { commitHeldCopy } from './s3/commit';
import { adoptHeldCopy, BLOBS, dropHeldCopy, HELD, heldPrefix, readState } from './s3/held';
import { assertBucketLocks, deleteAllVersions, lockObject, lockParams, type ObjectLockSetting } from './s3/object-lock';
import { receiveHeld, type ReceiveSettings } from './s3/receive';

export interface S3StoreOptions {
  client: S3Client;
  bucket: string;
  /** bytes per multipart part, ≥ 5 MiB (S3's minimum); 8 MiB holds 5 GiB in 640 parts */
  partSize?: number;
  /** parts uploading at once, per upload */
  partsInFlight?: number;
  /** S3_OBJECT_LOCK: blobs placed with the lock their caller asks for, at most in this mode; the bucket must have Object Lock */
  objectLock?: ObjectLockSetting;
}

const MiB = 1024 * 1024;
const MARKER = 'silo-store.json';

export class S3Store implements BlobStore {
  readonly kind = 's3';
  private readonly bucket: Bucket;
  private readonly settings: ReceiveSettings;
  private readonly objectLock?: ObjectLockSetting;
  /** Only with Object Lock: a store without it has no lock (BlobStore.lock). */
  readonly lock?: (hash: string, lock: BlobLock) => Promise<void>;

  constructor(o: S3StoreOptions) {
    this.bucket = new Bucket(o.client, o.bucket);
    const partSize = o.partSize ?? 8 * MiB;
    if (partSize < 5 * MiB) throw new Error('S3 parts must be at least 5 MiB');
    this.settings = { partSize, partsInFlight: o.partsInFlight ?? 2 };
    const setting = o.objectLock;
    if (setting) {
      this.objectLock = setting;
      this.lock = (hash, lock) => lockObject(this.bucket, setting, this.blobKey(hash), lock, hash);
    }
  }

  private lockParams(opts?: PlaceOptions) {
    return this.objectLock ? lockParams(this.objectLock, opts?.lock) : undefined;
  }

  private blobKey(hash: string) {
    if (!isSha256(hash)) throw new Error('not a sha256');
    return `${BLOBS}${hash}`;
  }

  receive(uploadId: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, opts: ReceiveOptions): Promise<Received> {
    heldPrefix(uploadId); // validates the id before any request
    return receiveHeld(this.bucket, this.settings, uploadId, source, opts, this.lockParams(opts));
  }

  adoptHeld(uploadId: string, generation: number): Promise<number> {
    return adoptHeldCopy(this.bucket, uploadId, generation, this.settings.partsInFlight);
  }

  async heldSize(uploadId: string): Promise<number> {
    return (await readState(this.bucket, uploadId))?.size ?? 0;
  }

  async listHeld(): Promise<{ uploadId: string; modifiedAt: Date }[]> {
    // Grouped by id; a copy that a crash left without its state object is listed too, so it gets swept.
    const latest = new Map<string, Date>();
    for await (const o of this.bucket.list(HELD)) {
      const slash = o.key.indexOf('/', HELD.length);
      if (slash < 0) continue;
      const id = o.key.slice(HELD.length, slash);
      const seen = latest.get(id);
      if (!seen || o.modifiedAt > seen) latest.set(id, o.modifiedAt);
    }
    return [...latest].map(([uploadId, modifiedAt]) => ({ uploadId, modifiedAt }));
  }

  dropHeld(uploadId: string): Promise<void> {
    return dropHeldCopy(this.bucket, uploadId);
  }

  async commitHeld(uploadId: string, hash: string, opts?: PlaceOptions): Promise<void> {
    this.blobKey(hash);
    const lock = this.lockParams(opts);
    const carried = await commitHeldCopy(this.bucket, uploadId, hash, lock);
    if (lock && !carried && opts?.lock) await this.lock?.(hash, opts.lock);
  }

  async put(hash: string, bytes: Uint8Array, opts?: PlaceOptions): Promise<void> {
    const key = this.blobKey(hash);
    assertHash(bytes, hash);
    // One PutObject: the object appears whole or not at all; the same bytes again change nothing.
    await this.bucket.put(key, bytes, { lock: this.lockParams(opts), sha256: hash });
  }

  async read(hash: string, range?: ByteRange): Promise<Readable> {
    const stream = await this.bucket.stream(this.blobKey(hash), range);
    if (!stream) throw new BlobMissing(hash);
    return stream;
  }

  async exists(hash: string): Promise<boolean> {
    return (await this.bucket.head(this.blobKey(hash))) !== undefined;
  }

  async blobSize(hash: string): Promise<number | undefined> {
    return (await this.bucket.head(this.blobKey(hash)))?.size;
  }

  async *listBlobs(): AsyncIterable<BlobInfo> {
    for await (const o of this.bucket.list(BLOBS)) {
      const hash = o.key.slice(BLOBS.length);
      if (isSha256(hash)) yield { hash, size: o.size, modifiedAt: o.modifiedAt };
    }
  }

  /** With Object Lock, every version of the blob, or BlobLocked when a lock keeps one. */
  async delete(hash: string): Promise<void> {
    if (this.objectLock) return deleteAllVersions(this.bucket, this.blobKey(hash), hash);
    await this.bucket.delete(this.blobKey(hash));
  }

  /**
   * The marker is created with If-None-Match: *, so of two instances claiming an empty bucket at
   * once only one write wins (AWS S3 and most servers honour it; s3rver ignores it, leaving a
   * read-then-write race on a bucket's very first start only).
   */
  async claim(databaseId: string): Promise<void> {
    if (this.objectLock) await assertBucketLocks(this.bucket, this.objectLock);
    for (let attempt = 0; ; attempt++) {
      const recorded = await this.recordedDatabase();
      if (recorded === databaseId) return;
      if (recorded !== undefined) throw new StoreOfAnotherDatabase(`s3://${this.bucket.name}`, recorded, databaseId);
      try {
        return await this.bucket.put(MARKER, `${JSON.stringify({ database_id: databaseId })}\n`, { ifNoneMatch: true });
      } catch (err) {
        if (!isPreconditionFailed(err) || attempt > 2) throw err;
      }
    }
  }

  private async recordedDatabase(): Promise<string | undefined> {
    const bytes = await this.bucket.getBytes(MARKER);
    return bytes && String((JSON.parse(bytes.toString('utf8')) as { database_id?: unknown }).database_id ?? '');
  }

  async check(): Promise<void> {
    const id = `check-${randomUUID()}`;
    try {
      await this.receive(id, [Buffer.from('ok')], { offset: 0, maxBytes: 16 });
      if ((await this.heldSize(id)) !== 2) throw new Error('blob store check failed');
    } finally {
      await this.dropHeld(id);
    }
  }
}
