// Where file bytes live: content addressed by sha256, so identical bytes are stored once.
// Uploads arrive into a private "held" copy first (resumable), and only a verified held copy
// is committed under its hash. No Prisma and no Next here: bytes and hashes, nothing else.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';

export interface ByteRange {
  start: number;
  /** inclusive */
  end: number;
}

export interface Received {
  /** bytes held in all, earlier ones included */
  size: number;
  /** lowercase hex sha256 of every held byte */
  hash: string;
}

export interface ReceiveOptions {
  /** 0 starts over; otherwise the bytes continue a held copy of exactly this size. */
  offset: number;
  /**
   * Refuse with BlobTooLarge as soon as more than this many bytes would be held. The held copy is
   * then cut back to `offset`: what was held before this call stays held, for a resume.
   */
  maxBytes: number;
  /**
   * The sha256 the bytes are declared to have, when the caller knows it. A store may stage the
   * upload where that blob will live (S3 completes its multipart upload there, invisible until
   * commitHeld), so commitHeld of the copy under another hash may fail. Give the same value on
   * every call for one upload.
   */
  expectedHash?: string;
  /**
   * The writer's upload lease (upload-lock.ts). Its generation goes with every record of the held
   * copy, so a writer of an older generation (a holder that stalled past its lease) never changes
   * what a newer one holds; check() runs before each durable step that a newer writer would see
   * (a part added, the copy started over) and throws when the lease is gone.
   */
  lease?: HeldLease;
  /**
   * The lock the blob will be placed with, when it is known before its bytes arrive (a store with
   * locks). A store that stages the upload at the blob's own key (S3 with expectedHash: a multipart
   * upload completed there) creates it locked: no later request of that placement can carry a lock.
   */
  lock?: BlobLock;
}

export interface HeldLease {
  generation: number;
  check(): Promise<void>;
}

/** What a store that can lock blobs (S3 with S3_OBJECT_LOCK) needs to place one locked; the lock it gets is as lock() sets it. */
export interface PlaceOptions {
  lock?: BlobLock;
}

export interface BlobInfo {
  hash: string;
  size: number;
  modifiedAt: Date;
}

export interface BlobStore {
  readonly kind: string;
  /**
   * Streams `source` into the held copy named `uploadId`, hashing and counting as it goes.
   * If the source breaks off, what arrived stays held (and is returned by heldSize) so the
   * upload can be resumed; past maxBytes the held copy is cut back to `opts.offset`.
   */
  receive(uploadId: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, opts: ReceiveOptions): Promise<Received>;
  heldSize(uploadId: string): Promise<number>;
  /**
   * A takeover: the writer of `generation` adopts the held copy of a lapsed holder that may only
   * have stalled and may still write. From here on nothing that holder writes changes the copy;
   * what was durable stays held (no byte is received twice). Returns the bytes held.
   */
  adoptHeld(uploadId: string, generation: number): Promise<number>;
  /** Every held copy with the time it last grew. */
  listHeld(): Promise<{ uploadId: string; modifiedAt: Date }[]>;
  dropHeld(uploadId: string): Promise<void>;
  /**
   * Moves a verified held copy under its hash. When those bytes exist already it does the same
   * work (the copy replaces them) and keeps one: how long it takes must not tell whether they were there.
   */
  commitHeld(uploadId: string, hash: string, opts?: PlaceOptions): Promise<void>;
  /**
   * Puts small verified bytes (an inline file's) under their hash at once, as durably as
   * commitHeld: what receive and commitHeld do in one step, with fewer calls. The same work
   * whether or not the bytes exist already.
   */
  put(hash: string, bytes: Uint8Array, opts?: PlaceOptions): Promise<void>;
  /** `size`, when the caller knows it, lets a small read allocate no more than it needs. */
  read(hash: string, range?: ByteRange, size?: number): Promise<Readable>;
  exists(hash: string): Promise<boolean>;
  /** The stored size of blob `hash`, or undefined when the store does not hold it. */
  blobSize(hash: string): Promise<number | undefined>;
  /** Every blob the store holds (for fsck and the sweep of unreferenced blobs). */
  listBlobs(): AsyncIterable<BlobInfo>;
  delete(hash: string): Promise<void>;
  /** Sets or extends (never shortens) the lock of a stored blob; stores without locks leave it out. */
  lock?(hash: string, lock: BlobLock): Promise<void>;
  /**
   * Binds the store to one database: the first call records `databaseId` in the store; a later
   * call with another id throws StoreOfAnotherDatabase (a store must never serve two databases).
   */
  claim(databaseId: string): Promise<void>;
  /** Proves the store can be written, read and cleaned (readiness check). */
  check(): Promise<void>;
}

/** What a stored blob's versions ask of its store (docs/api.md, Retention): the latest date over them, and any hold. */
export interface BlobLock {
  mode: 'governance' | 'compliance' | null;
  retainUntil: Date | null;
  legalHold: boolean;
}

// Errors are recognised by name, not instanceof: the store is a process-wide singleton, and a
// Next server bundles its classes once per entry point, so instances cross class copies.
export class BlobTooLarge extends Error {
  override readonly name = 'BlobTooLarge';
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

export const isBlobTooLarge = (err: unknown): err is BlobTooLarge => (err as Error)?.name === 'BlobTooLarge';

/** A held copy that a writer of a newer lease generation holds now: this writer's lease is gone. */
export class HeldByNewerLease extends Error {
  override readonly name = 'HeldByNewerLease';
}

export const isHeldByNewerLease = (err: unknown) => (err as Error)?.name === 'HeldByNewerLease';

export class BlobMissing extends Error {
  override readonly name = 'BlobMissing';
  constructor(readonly hash: string) {
    super(`blob ${hash} is missing`);
  }
}

export class StoreOfAnotherDatabase extends Error {
  override readonly name = 'StoreOfAnotherDatabase';
  constructor(
    readonly where: string,
    readonly recorded: string,
    readonly databaseId: string,
  ) {
    super(`the blob store at ${where} belongs to database ${recorded}, not to this one (${databaseId})`);
  }
}

/**
 * A delete the store refused because the blob is locked (S3 Object Lock: retention or legal hold).
 * Not a failure: the blob stays, with its row, and a later sweep tries again.
 */
export class BlobLocked extends Error {
  override readonly name = 'BlobLocked';
  constructor(
    readonly hash: string,
    options?: { cause?: unknown },
  ) {
    super(`blob ${hash} is locked (retention or legal hold) and was kept`, options);
  }
}

export const isBlobLocked = (err: unknown): err is BlobLocked => (err as Error)?.name === 'BlobLocked';

/** A store with no room left (ENOSPC, a quota): the server's problem, answered 507. */
export class StoreFull extends Error {
  override readonly name = 'StoreFull';
}

/** A store that cannot be used right now (read-only, failing disk, unreachable bucket): answered 503. */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
}

const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
const UNAVAILABLE = new Set(['EROFS', 'EACCES', 'EPERM', 'EIO', 'EMFILE', 'ENFILE', 'ENOTCONN', 'ESTALE']);

/**
 * What a failed store call means for the caller: 'full', 'unavailable', or undefined (anything
 * else: a bug). Stores throw StoreFull / StoreUnavailable, or let a file system error through
 * (recognised by its errno code and syscall, so a client's ECONNRESET is never taken for one).
 */
export function storeFailure(err: unknown): 'full' | 'unavailable' | undefined {
  const e = err as NodeJS.ErrnoException | undefined;
  if (e?.name === 'StoreFull') return 'full';
  if (e?.name === 'StoreUnavailable') return 'unavailable';
  // An AWS SDK error (it carries $metadata): the bucket unreachable, refusing our credentials or
  // failing (5xx). A 404 or 412 is the store's own business and never reaches here.
  const sdk = (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata;
  if (sdk && typeof sdk === 'object') {
    const status = sdk.httpStatusCode;
    return status === undefined || status >= 500 || status === 403 ? 'unavailable' : undefined;
  }
  if (typeof e?.code !== 'string' || typeof e.syscall !== 'string') return undefined;
  if (FULL.has(e.code)) return 'full';
  if (UNAVAILABLE.has(e.code)) return 'unavailable';
  return undefined;
}

export const isSha256 = (s: string) => /^[0-9a-f]{64}$/.test(s);

/** A store never places bytes under another hash than theirs. */
export function assertHash(bytes: Uint8Array, hash: string) {
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== hash) throw new Error(`bytes with sha256 ${actual} cannot be put as ${hash}`);
}
