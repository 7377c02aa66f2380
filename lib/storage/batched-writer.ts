// How received bytes reach a held copy on disk: batched, one write in flight, flushed as they go.
import type { FileHandle } from 'node:fs/promises';

export const CHUNK = 1024 * 1024;

/**
 * Writes chunks in ~1 MiB batches, one batch in flight while the next is gathered and hashed,
 * and asks the disk to flush every FLUSH_EVERY bytes as it goes, so that the fsync at the end
 * finds little left to do instead of the whole file (it ran after everything else before).
 */
const FLUSH_EVERY = 32 * CHUNK;

export function batchedWriter(fh: FileHandle, start: number) {
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
    inFlight = writeAll(fh, buffers, at);
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

/**
 * writev may write less than asked (a disk filling up does that before it answers ENOSPC);
 * the rest is written again, so a short write becomes an error, never a hole in the file.
 */
export async function writeAll(fh: FileHandle, buffers: Uint8Array[], at: number) {
  const total = buffers.reduce((n, b) => n + b.length, 0);
  let written = (await fh.writev(buffers, at)).bytesWritten;
  if (written === total) return;
  const all = Buffer.concat(buffers);
  while (written < total) {
    const { bytesWritten } = await fh.write(all, written, total - written, at + written);
    if (bytesWritten === 0) throw Object.assign(new Error('no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
    written += bytesWritten;
  }
}
