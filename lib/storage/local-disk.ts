// BlobStore on a local directory: <root>/sha256/ab/<hash> for blobs, <root>/held/<id> for uploads.
// A blob only ever appears by rename of a complete, fsync'd file, so a crash never leaves a
// half file where a stored one is expected.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  BlobMissing,
  BlobTooLarge,
  isBlobTooLarge,
  isSha256,
  StoreOfAnotherDatabase,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type ReceiveOptions,
  type Received,
} from './blob-store';

const CHUNK = 1024 * 1024;
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export class LocalDiskStore implements BlobStore {
  readonly kind = 'local';
  private readonly root: string;
  private readonly blobs: string;
  private readonly held: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.blobs = path.join(this.root, 'sha256');
    this.held = path.join(this.root, 'held');
  }

  private blobPath(hash: string) {
    if (!isSha256(hash)) throw new Error('not a sha256');
    return path.join(this.blobs, hash.slice(0, 2), hash);
  }

  private heldPath(id: string) {
    if (!SAFE_ID.test(id)) throw new Error('bad upload id');
    return path.join(this.held, id);
  }

  async receive(uploadId: string, source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, opts: ReceiveOptions): Promise<Received> {
    const file = this.heldPath(uploadId);
    await mkdir(this.held, { recursive: true });
    const hasher = createHash('sha256');
    let size = 0;
    if (opts.offset > 0) {
      // Resuming: the hash covers the held bytes too, so read them through it first.
      for await (const chunk of createReadStream(file, { highWaterMark: CHUNK, end: opts.offset - 1 })) {
        hasher.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
      if (size !== opts.offset) throw new Error('held copy shorter than its offset');
    }
    const fh = await open(file, opts.offset > 0 ? 'r+' : 'w');
    const writer = batchedWriter(fh, opts.offset);
    try {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > opts.maxBytes) throw new BlobTooLarge(opts.maxBytes);
        hasher.update(chunk);
        await writer.push(chunk);
      }
      await fh.truncate(await writer.finish());
      await fh.sync();
    } catch (err) {
      // A source that broke off leaves what arrived held, for a resume; too many bytes cut the
      // copy back to what was held before this call; a failed write drops it.
      const end = isBlobTooLarge(err) ? (await writer.settle(), opts.offset) : await writer.finish().catch(() => undefined);
      if (end === undefined) {
        await writer.settle();
        await fh.close().catch(() => {});
        await rm(file, { force: true });
      } else {
        await fh.truncate(end).catch(() => {});
        await fh.sync().catch(() => {});
        await fh.close().catch(() => {});
      }
      throw err;
    }
    await fh.close();
    return { size, hash: hasher.digest('hex') };
  }

  async heldSize(uploadId: string): Promise<number> {
    try {
      return (await stat(this.heldPath(uploadId))).size;
    } catch {
      return 0;
    }
  }

  async listHeld(): Promise<{ uploadId: string; modifiedAt: Date }[]> {
    const names = await readdir(this.held).catch(() => [] as string[]);
    const out: { uploadId: string; modifiedAt: Date }[] = [];
    for (const name of names) {
      const s = await stat(path.join(this.held, name)).catch(() => undefined);
      if (s) out.push({ uploadId: name, modifiedAt: s.mtime });
    }
    return out;
  }

  async dropHeld(uploadId: string): Promise<void> {
    await rm(this.heldPath(uploadId), { force: true });
  }

  async commitHeld(uploadId: string, hash: string): Promise<void> {
    const from = this.heldPath(uploadId);
    const to = this.blobPath(hash);
    if (await this.exists(hash)) {
      await unlink(from).catch(() => {});
      return;
    }
    await mkdir(path.dirname(to), { recursive: true });
    await rename(from, to);
    await fsyncDir(path.dirname(to));
  }

  async read(hash: string, range?: ByteRange): Promise<Readable> {
    const file = this.blobPath(hash);
    const fh = await open(file, 'r').catch(() => {
      throw new BlobMissing(hash);
    });
    return fh.createReadStream({ highWaterMark: CHUNK, start: range?.start, end: range?.end });
  }

  async exists(hash: string): Promise<boolean> {
    try {
      await stat(this.blobPath(hash));
      return true;
    } catch {
      return false;
    }
  }

  async blobSize(hash: string): Promise<number | undefined> {
    return (await stat(this.blobPath(hash)).catch(() => undefined))?.size;
  }

  async *listBlobs(): AsyncIterable<BlobInfo> {
    for (const dir of (await readdir(this.blobs).catch(() => [] as string[])).sort()) {
      for (const name of (await readdir(path.join(this.blobs, dir)).catch(() => [] as string[])).sort()) {
        if (!isSha256(name) || name.slice(0, 2) !== dir) continue;
        const s = await stat(path.join(this.blobs, dir, name)).catch(() => undefined);
        if (s?.isFile()) yield { hash: name, size: s.size, modifiedAt: s.mtime };
      }
    }
  }

  async claim(databaseId: string): Promise<void> {
    const marker = path.join(this.root, 'silo-store.json');
    const recorded = await readFile(marker, 'utf8').then(
      (text) => String((JSON.parse(text) as { database_id?: unknown }).database_id ?? ''),
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw err;
      },
    );
    if (recorded === databaseId) return;
    if (recorded !== undefined) throw new StoreOfAnotherDatabase(this.root, recorded, databaseId);
    await mkdir(this.root, { recursive: true });
    const tmp = `${marker}.${randomUUID()}.tmp`;
    await writeFile(tmp, JSON.stringify({ database_id: databaseId }) + '\n', { flag: 'wx' });
    await rename(tmp, marker);
    await fsyncDir(this.root);
  }

  async delete(hash: string): Promise<void> {
    await rm(this.blobPath(hash), { force: true });
  }

  async check(): Promise<void> {
    const id = `check-${randomUUID()}`;
    async function* once() {
      yield Buffer.from('ok');
    }
    const got = await this.receive(id, once(), { offset: 0, maxBytes: 16 });
    await this.dropHeld(id);
    if (got.size !== 2) throw new Error('blob store check failed');
  }
}

/**
 * Writes chunks in ~1 MiB batches, one batch in flight while the next is gathered and hashed,
 * and asks the disk to flush every FLUSH_EVERY bytes as it goes, so that the fsync at the end
 * finds little left to do instead of the whole file (it ran after everything else before).
 */
const FLUSH_EVERY = 32 * CHUNK;

function batchedWriter(fh: FileHandle, start: number) {
  let position = start;
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  let inFlight: Promise<unknown> = Promise.resolve();
  let flushing: Promise<unknown> = Promise.resolve();
  let unflushed = 0;
  const flush = async () => {
    if (!batchBytes) return;
    const buffers = batch;
    const at = position;
    position += batchBytes;
    unflushed += batchBytes;
    batch = [];
    batchBytes = 0;
    await inFlight;
    inFlight = fh.writev(buffers, at);
    inFlight.catch(() => {}); // a failure surfaces at the next await, not as an unhandled rejection
    if (unflushed >= FLUSH_EVERY) {
      unflushed = 0;
      const previous = flushing;
      // One datasync at a time, started after the write it should cover.
      flushing = Promise.all([previous, inFlight]).then(() => fh.datasync());
      flushing.catch(() => {});
    }
  };
  return {
    async push(chunk: Uint8Array) {
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batchBytes >= CHUNK) await flush();
    },
    async finish() {
      await flush();
      await inFlight;
      await flushing;
      return position;
    },
    /** Waits for the writes in flight, whatever their outcome. */
    async settle() {
      await inFlight.catch(() => {});
      await flushing.catch(() => {});
    },
  };
}

async function fsyncDir(dir: string) {
  const fh = await open(dir, 'r').catch(() => undefined);
  if (!fh) return;
  await fh.sync().catch(() => {});
  await fh.close().catch(() => {});
}
