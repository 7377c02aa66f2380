// Streams a large file (default 1 GiB) through S3Store into a local s3rver and back, next to the
// AWS SDK's own streaming upload (@aws-sdk/lib-storage) and a plain GetObject to the same server,
// and prints the ratios and this process's RSS growth (s3rver runs in a child). Not in npm test.
// Run: npx tsx bench/s3-upload-fetch.ts   (BENCH_BYTES=268435456 for a quicker run)
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createSHA256 } from 'hash-wasm';
import { S3Store } from '../lib/storage/s3-store';
import { startS3rver } from '../lib/testing/s3rver';
import { MB } from './measure';

const SIZE = Number(process.env.BENCH_BYTES ?? 1024 ** 3);
const CHUNK = 64 * 1024; // what an HTTP request body arrives in

/** SIZE bytes in fresh 64 KiB chunks, as a request body would bring them; `digest` once read. */
function body() {
  const h = createHash('sha256');
  const out = { digest: '' };
  async function* chunks() {
    for (let at = 0, i = 0; at < SIZE; at += CHUNK, i++) {
      const c = Buffer.allocUnsafe(Math.min(CHUNK, SIZE - at)).fill(i % 253);
      c.writeUInt32BE(i, 0);
      h.update(c);
      yield c;
    }
    out.digest = h.digest('hex');
  }
  return { chunks: chunks(), out };
}

/** Runs `f`, returning its MB/s and the peak RSS growth while it ran. */
async function measure(f: () => Promise<void>): Promise<{ mbps: number; rss: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t = performance.now();
  await f();
  const seconds = (performance.now() - t) / 1000;
  clearInterval(timer);
  return { mbps: SIZE / MB / seconds, rss: (Math.max(peak, process.memoryUsage().rss) - base) / MB };
}

async function drain(stream: AsyncIterable<unknown>) {
  let n = 0;
  for await (const c of stream) n += (c as Buffer).length;
  if (n !== SIZE) throw new Error(`read ${n} bytes, expected ${SIZE}`);
}

async function hashRates() {
  const block = Buffer.alloc(1024 * 1024, 7);
  const rate = (f: () => void) => {
    const t = performance.now();
    for (let i = 0; i < 256; i++) f();
    return (256 * block.length) / MB / ((performance.now() - t) / 1000);
  };
  const node = createHash('sha256');
  const wasm = await createSHA256();
  const n = rate(() => node.update(block));
  const w = rate(() => wasm.update(block));
  return { node: n, wasm: w };
}

async function main() {
  console.log(`S3 upload/fetch benchmark: ${(SIZE / 1024 ** 2).toFixed(0)} MiB through a local s3rver\n`);
  const h = await hashRates();
  console.log(`SHA-256: node:crypto ${h.node.toFixed(0)} MB/s, hash-wasm ${h.wasm.toFixed(0)} MB/s (${(h.wasm / h.node).toFixed(2)}×)`);
  const s3 = await startS3rver();
  try {
    const bucket = await s3.createBucket('bench');
    const client = s3.client();
    const store = new S3Store({ client, bucket });

    let hash = '';
    const storeUp = await measure(async () => {
      const b = body();
      const got = await store.receive('bench', b.chunks, { offset: 0, maxBytes: SIZE });
      if (got.hash !== b.out.digest) throw new Error('hash differs');
      await store.commitHeld('bench', got.hash);
      hash = got.hash;
    });
    const sdkUp = await measure(async () => {
      const b = body();
      await new Upload({ client, params: { Bucket: bucket, Key: 'direct', Body: Readable.from(b.chunks) } }).done();
    });
    // Fetches alternate, best of two each: this machine is shared and noisy.
    const best = (a: { mbps: number; rss: number }, b: { mbps: number; rss: number }) => ({
      mbps: Math.max(a.mbps, b.mbps),
      rss: Math.max(a.rss, b.rss),
    });
    const storeFetch = async () => measure(async () => drain(await store.read(hash)));
    const sdkFetch = () =>
      measure(async () => {
        const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: 'direct' }));
        await drain(got.Body as Readable);
      });
    const s1 = await storeFetch();
    const d1 = await sdkFetch();
    const storeDown = best(s1, await storeFetch());
    const sdkDown = best(d1, await sdkFetch());

    const line = (what: string, ours: { mbps: number; rss: number }, theirs: { mbps: number; rss: number }) =>
      console.log(
        `${what}: S3Store ${ours.mbps.toFixed(0)} MB/s (RSS +${ours.rss.toFixed(0)} MB) vs SDK ${theirs.mbps.toFixed(0)} MB/s ` +
          `(RSS +${theirs.rss.toFixed(0)} MB) → ${(ours.mbps / theirs.mbps).toFixed(2)}×`,
      );
    line('upload', storeUp, sdkUp);
    line('fetch ', storeDown, sdkDown);
    console.log('(upload: S3Store hashes with hash-wasm, saves its state after every 8 MiB part, and commits; the SDK only sends)');
    client.destroy();
  } finally {
    await s3.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
