// Receiving bytes into a held copy on S3. Full parts go to a multipart upload as they fill (at most
// `partsInFlight` at once, so memory stays near (partsInFlight + 1) × partSize); after each part
// the state object is rewritten, so a process that dies loses at most the part it was filling.
// When the source ends or breaks off, the bytes after the last full part become the tail object.
// Fenced by the writer's lease (held.ts): its state objects carry its generation, and a part is
// started only after the lease check passed and below the last durable `next` + partsInFlight, the
// numbers a successor skips when it adopts the copy.
import {
  BlobTooLarge,
  HeldByNewerLease,
  isBlobTooLarge,
  isSha256,
  type HeldLease,
  type ReceiveOptions,
  type Received,
} from '../blob-store';
import { resumableSha256, type ResumableSha256 } from '../sha256-state';
import type { Bucket } from './bucket';
import type { LockParams } from './object-lock';
import { BLOBS, dropHeldCopy, dropOlderStates, newTailKey, nextPartOf, readState, stagingKey, writeState, type HeldState } from './held';

const MiB = 1024 * 1024;
const MAX_PARTS = 10_000;
/** Part numbers kept free for the gaps takeovers leave (partsInFlight each): a file fits in the rest. */
const SIZED_PARTS = 9_000;

export interface ReceiveSettings {
  partSize: number;
  partsInFlight: number;
}

export async function receiveHeld(
  bucket: Bucket,
  settings: ReceiveSettings,
  id: string,
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  opts: ReceiveOptions,
  /** the lock headers of a multipart upload created at the blob's own key (opts.lock, under S3_OBJECT_LOCK) */
  lock?: LockParams,
): Promise<Received> {
  const gen = opts.lease?.generation ?? 0;
  await opts.lease?.check();
  const begin = opts.offset > 0 ? await stateAt(bucket, id, opts.offset, gen) : await startOver(bucket, settings, id, opts.maxBytes, gen);
  const hasher = await resumableSha256(begin.sha256);
  // The multipart upload completes straight to the blob's key when the caller knows the hash;
  // it stays invisible there until commitHeld completes it.
  const key = opts.expectedHash && isSha256(opts.expectedHash) ? `${BLOBS}${opts.expectedHash}` : stagingKey(id);
  const writer = new HeldWriter(bucket, id, begin, key, settings.partsInFlight, opts.lease, key === stagingKey(id) ? undefined : lock);
  await writer.loadTail();
  // yield* hands return() on to the source, so stopping early ends (destroys) it like for-await.
  const chunks = (async function* () {
    yield* source;
  })();
  let size = begin.size;
  let broke: { err: unknown } | undefined;
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } catch (err) {
        broke = { err };
        break;
      }
      if (next.done) break;
      size += next.value.length;
      if (size > opts.maxBytes) throw new BlobTooLarge(opts.maxBytes);
      await writer.push(next.value, hasher);
    }
  } catch (err) {
    // Too many bytes (cut back to the offset), or the store failed (the last state written stands).
    await chunks.return(undefined).catch(() => {});
    await (isBlobTooLarge(err) ? writer.cutBack(opts.offset) : writer.settle());
    throw err;
  }
  // Ended or broke off: what arrived stays held. A store failure here must not hide the source's error.
  await writer.finish(size, hasher).catch((err) => {
    if (!broke) throw err;
  });
  if (broke) throw broke.err;
  return { size, hash: hasher.digest() };
}

/** The state to continue from, as generation `gen` (unfenced writers pass 0 and take it as it is). */
async function stateAt(bucket: Bucket, id: string, offset: number, gen: number): Promise<HeldState> {
  const state = await readState(bucket, id);
  if (gen > 0 && (state?.gen ?? 0) > gen) throw new HeldByNewerLease(`the held copy ${id} is held by generation ${state?.gen}`);
  if (!state || state.size !== offset) throw new Error(`the held copy ${id} has ${state?.size ?? 0} bytes, not ${offset}`);
  return gen > 0 ? { ...state, gen } : state;
}

/** Offset 0 starts over: an earlier held copy goes, and the part size fits maxBytes into the parts a file may use. */
async function startOver(bucket: Bucket, settings: ReceiveSettings, id: string, maxBytes: number, gen: number): Promise<HeldState> {
  await dropHeldCopy(bucket, id);
  const partSize = Math.max(settings.partSize, Math.ceil(maxBytes / SIZED_PARTS / MiB) * MiB);
  return { v: 1, gen, size: 0, partSize, parts: [], sha256: '' };
}

class HeldWriter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** what the state object says, or will say once the queued writes land */
  private persisted: HeldState;
  private nextPart: number;
  /** the number the next part to record gets */
  private recordNext: number;
  /** `next` of the last state object written: no part is started at or past it + partsInFlight */
  private durableNext: number;
  private readonly uploading = new Map<number, Promise<void>>();
  private readonly sent = new Map<number, { etag: string; sha256: string }>();
  private writes: Promise<void> = Promise.resolve();
  private failed: { err: unknown } | undefined;

  constructor(
    private readonly bucket: Bucket,
    private readonly id: string,
    private readonly begin: HeldState,
    private readonly key: string,
    private readonly partsInFlight: number,
    private readonly lease?: HeldLease,
    /** created at the blob's key: the lock it completes with (S3 takes none on CompleteMultipartUpload) */
    private readonly lock?: LockParams,
  ) {
    this.persisted = begin;
    this.nextPart = nextPartOf(begin);
    this.recordNext = this.nextPart;
    this.durableNext = this.nextPart;
  }

  /** A resume starts with the tail's bytes: they open the next part. */
  async loadTail() {
    if (!this.begin.tail) return;
    const bytes = await this.bucket.getBytes(this.begin.tail.key);
    if (bytes?.length !== this.begin.tail.size) throw new Error(`the held copy ${this.id} has lost its tail`);
    this.pending.push(bytes);
    this.pendingBytes = bytes.length;
  }

  /** Hashes and holds `chunk`; a part that fills is sent, its hash state saved at its last byte. */
  async push(chunk: Uint8Array, hasher: ResumableSha256) {
    const partSize = this.begin.partSize;
    while (chunk.length > 0) {
      const piece = chunk.subarray(0, partSize - this.pendingBytes);
      hasher.update(piece);
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      chunk = chunk.subarray(piece.length);
      if (this.pendingBytes === partSize) await this.sendPart(hasher.save());
    }
  }

  private async sendPart(sha256: string) {
    const body = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const n = this.nextPart++;
    if (n > MAX_PARTS) throw new Error(`more than ${MAX_PARTS} parts of ${this.begin.partSize} bytes`);
    while (this.uploading.size >= this.partsInFlight || n >= this.durableNext + this.partsInFlight) {
      if (this.failed) throw this.failed.err;
      await (this.uploading.size ? Promise.race(this.uploading.values()) : this.writes);
    }
    if (this.failed) throw this.failed.err;
    // The fence: a holder whose lease is gone starts no part (its successor skipped this number).
    await this.lease?.check();
    const mp = await this.multipart();
    const task = this.bucket
      .uploadPart(mp.key, mp.id, n, body)
      .then((etag) => {
        this.sent.set(n, { etag, sha256 });
        return this.recordParts();
      })
      .catch((err) => {
        this.failed ??= { err };
      })
      .finally(() => this.uploading.delete(n));
    this.uploading.set(n, task);
  }

  /** Created with the first full part and recorded at once, so no process loses track of it. */
  private async multipart() {
    let mp = this.persisted.multipart;
    if (!mp) {
      mp = { key: this.key, id: await this.bucket.createMultipart(this.key, this.lock) };
      this.persisted = { ...this.persisted, multipart: mp };
      await this.write(this.persisted);
    }
    return mp;
  }

  /** Records the parts sent so far in order (parts may finish out of order). */
  private recordParts(): Promise<void> {
    let parts = this.persisted.parts;
    let sha256: string | undefined;
    for (let s = this.sent.get(this.recordNext); s; s = this.sent.get(this.recordNext)) {
      this.sent.delete(this.recordNext);
      parts = [...parts, { n: this.recordNext++, etag: s.etag }];
      sha256 = s.sha256;
    }
    if (!sha256) return Promise.resolve();
    this.persisted = {
      ...this.persisted,
      parts,
      next: this.recordNext,
      size: parts.length * this.begin.partSize,
      tail: undefined,
      sha256,
    };
    return this.write(this.persisted);
  }

  /** State writes go one at a time, in order, so the last one queued is the one that stays. */
  private write(state: HeldState): Promise<void> {
    const done = this.writes.then(async () => {
      await writeState(this.bucket, this.id, state);
      this.durableNext = nextPartOf(state);
    });
    this.writes = done.catch(() => {});
    return done;
  }

  async settle() {
    while (this.uploading.size) await Promise.all(this.uploading.values());
    await this.writes;
  }

  /** The source ended or broke off: the unfinished part becomes the tail, and the state says so. */
  async finish(size: number, hasher: ResumableSha256) {
    await this.settle();
    if (this.failed) throw this.failed.err;
    // A resume that brought nothing leaves the held copy as it was.
    if (this.begin.size > 0 && size === this.begin.size) return;
    let tail: HeldState['tail'];
    if (this.pendingBytes > 0) {
      tail = { key: newTailKey(this.id), size: this.pendingBytes };
      await this.bucket.put(tail.key, Buffer.concat(this.pending, this.pendingBytes));
    }
    this.persisted = { ...this.persisted, size, tail, sha256: hasher.save() };
    if (this.persisted.parts.length * this.persisted.partSize + (tail?.size ?? 0) !== size) throw new Error('held copy miscounted');
    await this.write(this.persisted);
    if (this.begin.tail) await this.bucket.delete(this.begin.tail.key).catch(() => {});
    // This generation's state is the newest now: older ones (a predecessor's) are never read again.
    if (this.begin.gen) await dropOlderStates(this.bucket, this.id, this.begin.gen).catch(() => {});
  }

  /** Past maxBytes: back to what was held before this call (its tail object is still there). */
  async cutBack(offset: number) {
    await this.settle();
    // A successor may have adopted what this writer created: undo it only while holding the lease.
    const holding = await (this.lease?.check() ?? Promise.resolve()).then(
      () => true,
      () => false,
    );
    if (!holding) return;
    if (offset === 0) return dropHeldCopy(this.bucket, this.id);
    const created = this.persisted.multipart && !this.begin.multipart ? this.persisted.multipart : undefined;
    if (created) await this.bucket.abortMultipart(created.key, created.id);
    await this.write(this.begin);
  }
}
