// Sources and sinks for the store suite: bytes in irregular chunks, sources that break off,
// reading a stream back, and a watch on the process's resident memory.
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

export const MiB = 1024 * 1024;
export const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
export const random = (n: number) => randomBytes(n);

/** Chunk sizes that never line up with a MiB or a part: 64 KiB+13, 1 MiB+7, 300 KiB+1, 5. */
const SIZES = [64 * 1024 + 13, MiB + 7, 300 * 1024 + 1, 5];

/** Yields `bytes` in irregular chunks, each a fresh copy (a store may keep references to chunks). */
export async function* chunks(bytes: Uint8Array) {
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const end = Math.min(at + SIZES[i % SIZES.length], bytes.length);
    yield Buffer.from(bytes.subarray(at, end));
    at = end;
  }
}

/** The client's connection drops: `bytes` arrive, then the source throws. */
export class SourceBroke extends Error {
  readonly code = 'ECONNRESET';
  constructor() {
    super('aborted');
  }
}
export async function* breaksAfter(bytes: Uint8Array) {
  yield* chunks(bytes);
  throw new SourceBroke();
}

export async function readAll(stream: Readable | AsyncIterable<Uint8Array>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const c of stream) out.push(Buffer.from(c));
  return Buffer.concat(out);
}

/** `total` bytes made on the fly, 1 MiB a chunk, never all in memory; `sha` is theirs once all are read. */
export function generated(total: number, onChunk: () => void) {
  const hash = createHash('sha256');
  const result = { sha: '' };
  async function* source() {
    for (let at = 0, i = 0; at < total; i++) {
      const n = Math.min(MiB, total - at);
      const chunk = Buffer.allocUnsafe(n).fill(i % 251);
      chunk.writeUInt32BE(i, 0);
      hash.update(chunk);
      at += n;
      onChunk();
      yield chunk;
    }
    result.sha = hash.digest('hex');
  }
  return { source: source(), result };
}

/** Highest resident set size seen since `start()`, sampled on a timer and whenever `sample()` is called. */
export function rssWatch() {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const timer = setInterval(sample, 20);
  return {
    sample,
    /** growth over the start, in MB */
    stop() {
      clearInterval(timer);
      sample();
      return (peak - base) / 1e6;
    },
  };
}

/** A range read's expected bytes. */
export const slice = (b: Buffer, start: number, end: number) => b.subarray(start, end + 1);
