// Read buffers used again (chunk-pool.ts): a file read through the pool is read whole and in order,
// a buffer goes back only when its chunk is released (once), and the file is closed however the
// reading ends — at its end, on a failure, or stopped before it began.
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunkPool, pooledChunks } from './chunk-pool';

describe('read buffers used again', () => {
  let dir: string;
  let file: string;
  const bytes = randomBytes(5 * 1000 + 123);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'silo-chunk-pool-'));
    file = path.join(dir, 'blob');
    await writeFile(file, bytes);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A handle whose close is counted. */
  async function handle() {
    const fh = await open(file, 'r');
    const counted = { closes: 0 };
    const close = fh.close.bind(fh);
    fh.close = () => {
      counted.closes++;
      return close();
    };
    return { fh, counted };
  }

  it('reads a file whole, in order, through one buffer when each chunk is released before the next read', async () => {
    const pool = new ChunkPool(1000);
    const { fh, counted } = await handle();
    const seen = new Set<ArrayBufferLike>();
    const got: Buffer[] = [];
    for await (const chunk of pooledChunks(fh, pool)) {
      got.push(Buffer.from(chunk));
      seen.add(chunk.buffer);
      pool.release(chunk);
    }
    expect(Buffer.concat(got).equals(bytes)).toBe(true);
    expect(got.map((c) => c.length)).toEqual([1000, 1000, 1000, 1000, 1000, 123]);
    expect(seen.size).toBe(1);
    expect(counted.closes).toBe(1);
  });

  it('never hands out a buffer whose chunk was not released, and takes each back once', async () => {
    const pool = new ChunkPool(1000);
    const { fh } = await handle();
    const held: Buffer[] = [];
    for await (const chunk of pooledChunks(fh, pool)) held.push(chunk);
    // nothing released: every chunk has a buffer of its own, and each still holds its bytes
    expect(new Set(held.map((c) => c.buffer)).size).toBe(6);
    expect(Buffer.concat(held).equals(bytes)).toBe(true);
    // the buffer of the read that found the end is back already
    expect(pool.freeCount).toBe(1);
    pool.release(held[0]);
    pool.release(held[0]);
    pool.release(Buffer.alloc(1000)); // not the pool's
    expect(pool.freeCount).toBe(2);
    expect(pool.take().buffer).toBe(held[0].buffer);
  });

  it('keeps at most `keep` free buffers', () => {
    const pool = new ChunkPool(10, 2);
    const lent = [pool.take(), pool.take(), pool.take()].map((b) => pool.lend(b, 10));
    for (const c of lent) pool.release(c);
    expect(pool.freeCount).toBe(2);
  });

  it('closes the file when stopped before the first read, and after a failed read', async () => {
    const pool = new ChunkPool(1000);
    const stopped = await handle();
    await pooledChunks(stopped.fh, pool).return?.();
    expect(stopped.counted.closes).toBe(1);

    const failing = await handle();
    failing.fh.read = (() => Promise.reject(new Error('EIO'))) as never;
    await expect(pooledChunks(failing.fh, pool).next()).rejects.toThrow('EIO');
    expect(failing.counted.closes).toBe(1);
  });
});
