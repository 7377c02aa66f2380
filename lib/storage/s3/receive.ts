// Receiving bytes into a held copy on S3. Full parts go to a multipart upload as they fill (at most
// `partsInFlight` at once, so memory stays near (partsInFlight + 1) × partSize); after each part
// the state object is rewritten, so a process that dies loses at most the part it was filling.
// When the source ends or breaks off, the bytes after the last full part become the tail object.
import { BlobTooLarge, isBlobTooLarge, isSha256, type ReceiveOptions, type Received } from '../blob-store';
import { resumableSha256, type ResumableSha256 } from '../sha256-state';
import type { Bucket } from './bucket';
import { BLOBS, dropHeldCopy, newTailKey, readState, stagingKey, writeState, type HeldState } from './held';

const MiB = 1024 * 1024;
const MAX_PARTS = 10_000;

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
): Promise<Received> {
  const begin = opts.offset > 0 ? await stateAt(bucket, id, opts.offset) : await startOver(bucket, settings, id, opts.maxBytes);
  const hasher = await resumableSha256(begin.sha256);
  // The multipart upload completes straight to the blob's key when the caller knows the hash;
  // it stays invisible there until commitHeld completes it.
  const key = opts.expectedHash && isSha256(opts.expectedHash) ? `${BLOBS}${opts.expectedHash}` : stagingKey(id);
  const writer = new HeldWriter(bucket, id, begin, key, settings.partsInFlight);
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

async function stateAt(bucket: Bucket, id: string, offset: number): Promise<HeldState> {
  const state = await readState(bucket, id);
  if (!state || state.size !== offset) throw new Error(`the held copy ${id} has ${state?.size ?? 0} bytes, not ${offset}`);
  return state;
}

/** Offset 0 starts over: an earlier held copy goes, and the part size fits maxBytes into 10,000 parts. */
async function startOver(bucket: Bucket, settings: ReceiveSettings, id: string, maxBytes: number): Promise<HeldState> {
  await dropHeldCopy(bucket, id);
  const partSize = Math.max(settings.partSize, Math.ceil(maxBytes / MAX_PARTS / MiB) * MiB);
  return { v: 1, size: 0, partSize, parts: [], sha256: '' };
}

class HeldWriter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** what the state object says, or will say once the queued writes land */
  private persisted: HeldState;
  private nextPart: number;
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
  ) {
    this.persisted = begin;
    this.nextPart = begin.parts.length + 1;
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
    while (this.uploading.size >= this.partsInFlight) await Promise.race(this.uploading.values());
    if (this.failed) throw this.failed.err;
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
      mp = { key: this.key, id: await this.bucket.createMultipart(this.key) };
      this.persisted = { ...this.persisted, multipart: mp };
      await this.write(this.persisted);
    }
    return mp;
  }

  /** Records the parts sent so far in order (parts may finish out of order). */
  private recordParts(): Promise<void> {
    let parts = this.persisted.parts;
    let sha256: string | undefined;
    for (let s = this.sent.get(parts.length + 1); s; s = this.sent.get(parts.length + 1)) {
      this.sent.delete(parts.length + 1);
      parts = [...parts, { n: parts.length + 1, etag: s.etag }];
      sha256 = s.sha256;
    }
    if (!sha256) return Promise.resolve();
    this.persisted = { ...this.persisted, parts, size: parts.length * this.begin.partSize, tail: undefined, sha256 };
    return this.write(this.persisted);
  }

  /** State writes go one at a time, in order, so the last one queued is the one that stays. */
  private write(state: HeldState): Promise<void> {
    const done = this.writes.then(() => writeState(this.bucket, this.id, state));
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
  }

  /** Past maxBytes: back to what was held before this call (its tail object is still there). */
  async cutBack(offset: number) {
    await this.settle();
    if (offset === 0) return dropHeldCopy(this.bucket, this.id);
    const created = this.persisted.multipart && !this.begin.multipart ? this.persisted.multipart : undefined;
    if (created) await this.bucket.abortMultipart(created.key, created.id);
    await this.write(this.begin);
  }
}
