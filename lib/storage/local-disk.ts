// BlobStore on a local directory: <root>/sha256/ab/<hash> for blobs, <root>/held/<id> for uploads,
// <root>/silo-store.json for the database the store belongs to.
// A blob only ever appears by rename of a complete, fsync'd file, so a crash never leaves a
// half file where a stored one is expected; the file is made read-only (0444) before that rename,
// so no blob file is ever writable under its name (fsck reports one that became so). Freeing it
// still works: an unlink asks the directory, not the file.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  BlobMissing,
  BlobTooLarge,
  assertHash,
  isBlobTooLarge,
  isSha256,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type ReceiveOptions,
  type Received,
} from './blob-store';
import { batchedWriter, CHUNK, writeAll } from './batched-writer';
import { BlobDirs, fsyncDir } from './blob-dirs';
import { type ChunkPool, pooledChunks } from './chunk-pool';
import { claimStore } from './store-marker';

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** The file system calls the store makes; tests pass one that fails like a full or read-only disk (lib/testing/faulty-disk.ts). */
export type DiskIo = Pick<typeof fsp, 'open' | 'rename' | 'link' | 'unlink' | 'rm' | 'mkdir' | 'readdir' | 'stat' | 'readFile' | 'chmod'>;
/** A stored blob's file: readable by all, writable by none. */
export const BLOB_MODE = 0o444;
/** A held copy whose commit failed after it was made read-only gets back a mode its writer can resume with. */
const HELD_MODE = 0o600;
const realDisk: DiskIo = fsp;

export class LocalDiskStore implements BlobStore {
  readonly kind = 'local';
  readonly root: string;
  private readonly blobs: string;
  private readonly held: string;
  private readonly dirs: BlobDirs;

  constructor(
    root: string,
    private readonly io: DiskIo = realDisk,
  ) {
    this.root = path.resolve(root);
    this.blobs = path.join(this.root, 'sha256');
    this.held = path.join(this.root, 'held');
    this.dirs = new BlobDirs(io, [this.blobs, this.root]);
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
    await this.io.mkdir(this.held, { recursive: true });
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
    // The fence (adoptHeld): a writer whose lease is gone opens nothing its successor may hold.
    await opts.lease?.check();
    const fh = await this.io.open(file, opts.offset > 0 ? 'r+' : 'w');
    const writer = batchedWriter(fh, opts.offset);
    // Who failed decides what stays held: the source (the client broke off) or the disk.
    let failing: 'source' | 'disk' = 'source';
    try {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > opts.maxBytes) throw new BlobTooLarge(opts.maxBytes);
        hasher.update(chunk);
        failing = 'disk';
        await writer.push(chunk);
        failing = 'source';
      }
      failing = 'disk';
      await fh.truncate(await writer.finish());
      await fh.sync();
    } catch (err) {
      // A source that broke off leaves what arrived held, for a resume. Too many bytes, or a
      // disk that failed (full, read-only, I/O error), cut the copy back to what was held
      // before this call: the failed request changes nothing, and a full disk gets its space back.
      const end = failing === 'source' && !isBlobTooLarge(err) ? await writer.finish().catch(() => undefined) : undefined;
      if (end !== undefined) {
        await fh.truncate(end).catch(() => {});
        await fh.sync().catch(() => {});
        await fh.close().catch(() => {});
      } else {
        await writer.settle();
        if (opts.offset > 0) {
          await fh.truncate(opts.offset).catch(() => {});
          await fh.sync().catch(() => {});
        }
        await fh.close().catch(() => {});
        if (opts.offset === 0) await this.io.rm(file, { force: true }).catch(() => {});
      }
      throw err;
    }
    await fh.close();
    return { size, hash: hasher.digest('hex') };
  }

  /**
   * A takeover: the held file is copied and the copy renamed over it, so a stalled earlier holder,
   * writing through the descriptor it opened, writes to a file nobody names any more. Bytes it
   * appended while the copy was made are held or not as a whole prefix: the hash is re-read on resume.
   */
  async adoptHeld(uploadId: string, _generation: number): Promise<number> {
    const file = this.heldPath(uploadId);
    const copy = this.heldPath(`adopt-${randomUUID()}`);
    try {
      await fsp.copyFile(file, copy);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
    const fh = await this.io.open(copy, 'r+');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
    await this.io.rename(copy, file);
    await fsyncDir(this.io, this.held);
    return this.heldSize(uploadId);
  }

  async heldSize(uploadId: string): Promise<number> {
    try {
      return (await this.io.stat(this.heldPath(uploadId))).size;
    } catch {
      return 0;
    }
  }

  async listHeld(): Promise<{ uploadId: string; modifiedAt: Date }[]> {
    const names = await this.io.readdir(this.held).catch(() => [] as string[]);
    const out: { uploadId: string; modifiedAt: Date }[] = [];
    for (const name of names) {
      const s = await this.io.stat(path.join(this.held, name)).catch(() => undefined);
      if (s?.isFile()) out.push({ uploadId: name, modifiedAt: s.mtime });
    }
    return out;
  }

  async dropHeld(uploadId: string): Promise<void> {
    await this.io.rm(this.heldPath(uploadId), { force: true });
  }

  async commitHeld(uploadId: string, hash: string): Promise<void> {
    // Renamed over identical bytes stored already, as over nothing: the same work either way, so
    // no caller can time whether they were there (one copy is kept all the same).
    const from = this.heldPath(uploadId);
    const to = this.blobPath(hash);
    try {
      await this.io.chmod(from, BLOB_MODE);
    } catch (err) {
      // No held copy: an earlier commit of it placed it already.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && (await this.exists(hash))) return;
      throw err;
    }
    await this.placeRenamed(from, to).catch(async (err) => {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && (await this.exists(hash))) return;
      // Still held (the rename failed): writable again, so the upload can be resumed or committed anew.
      await this.io.chmod(from, HELD_MODE).catch(() => {});
      throw err;
    });
  }

  async put(hash: string, bytes: Uint8Array): Promise<void> {
    const to = this.blobPath(hash);
    assertHash(bytes, hash);
    // A held copy of its own (swept like any other should a crash leave it), fsync'd, then
    // renamed into place: the crash guarantees of receive and commitHeld, in fewer calls. Over
    // identical bytes too, as commitHeld does.
    const from = this.heldPath(`inline-${randomUUID()}`);
    await this.io.mkdir(this.held, { recursive: true });
    const fh = await this.io.open(from, 'w');
    try {
      await writeAll(fh, [bytes], 0);
      await fh.chmod(BLOB_MODE);
      await fh.sync();
      await fh.close();
      await this.placeRenamed(from, to);
    } catch (err) {
      await fh.close().catch(() => {});
      await this.io.rm(from, { force: true }).catch(() => {});
      throw err;
    }
  }

  /** Renames a complete, fsync'd file to its blob path, durably (blob-dirs.ts). */
  private async placeRenamed(from: string, to: string) {
    const dir = path.dirname(to);
    await this.dirs.ensure(dir);
    await this.io.rename(from, to).catch(async (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // The directory went away since this store saw it (the held copy is there: it was just written).
      await this.dirs.ensure(dir, true);
      await this.io.rename(from, to);
    });
    await this.dirs.sync(dir);
  }

  async read(hash: string, range?: ByteRange, size?: number): Promise<Readable> {
    const file = this.blobPath(hash);
    const fh = await this.io.open(file, 'r').catch(() => {
      throw new BlobMissing(hash);
    });
    // 1 MiB chunks make large files fast; a 4 KiB invoice needs a 4 KiB buffer, not a 1 MiB one.
    const length = range ? range.end - range.start + 1 : size;
    const highWaterMark = length === undefined ? CHUNK : Math.max(1, Math.min(CHUNK, length));
    return fh.createReadStream({ highWaterMark, start: range?.start, end: range?.end });
  }

  /** A whole blob's bytes in the pool's buffers (chunk-pool.ts): the auditor's export reads this way. */
  async readChunks(hash: string, pool: ChunkPool): Promise<AsyncIterable<Buffer>> {
    const fh = await this.io.open(this.blobPath(hash), 'r').catch(() => {
      throw new BlobMissing(hash);
    });
    return pooledChunks(fh, pool);
  }

  async exists(hash: string): Promise<boolean> {
    try {
      await this.io.stat(this.blobPath(hash));
      return true;
    } catch {
      return false;
    }
  }

  async blobSize(hash: string): Promise<number | undefined> {
    return (await this.io.stat(this.blobPath(hash)).catch(() => undefined))?.size;
  }

  /** Whether blob `hash`'s file can be written (every blob is placed read-only: one that can was changed by hand); false when there is none. */
  async blobWritable(hash: string): Promise<boolean> {
    const s = await this.io.stat(this.blobPath(hash)).catch(() => undefined);
    return s !== undefined && (s.mode & 0o222) !== 0;
  }

  async *listBlobs(): AsyncIterable<BlobInfo> {
    for (const dir of (await this.io.readdir(this.blobs).catch(() => [] as string[])).sort()) {
      for (const name of (await this.io.readdir(path.join(this.blobs, dir)).catch(() => [] as string[])).sort()) {
        if (!isSha256(name) || name.slice(0, 2) !== dir) continue;
        const s = await this.io.stat(path.join(this.blobs, dir, name)).catch(() => undefined);
        if (s?.isFile()) yield { hash: name, size: s.size, modifiedAt: s.mtime };
      }
    }
  }

  /** Marks the store as `databaseId`'s, or refuses when it is another database's (store-marker.ts). */
  claim(databaseId: string): Promise<void> {
    return claimStore(this.io, this.root, databaseId);
  }

  async delete(hash: string): Promise<void> {
    await this.io.rm(this.blobPath(hash), { force: true });
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
