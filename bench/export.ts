// The auditor's export against a real server, on both stores (local disk; S3 through a local
// s3rver): EXPORT_BYTES (default 2 GiB) in EXPORT_VERSIONS (default 3000) versions of varied size,
// GET /silo/v1/export streamed by curl to /dev/null, next to `zip -0 -r` over the same bytes as files,
// to stdout, in the same run. Targets: ≥ 0.5 × zip's rate; server RSS peak − baseline ≤ 100 MB.
// On S3, also the rate at which s3rver alone serves the same objects (GetObject, 8 at a time, as
// the export reads ahead; bodies discarded): the local S3 server's own ceiling, in the same run.
// Run: npx tsx bench/export.ts  (EXPORT_BYTES=268435456 EXPORT_VERSIONS=400 for a quicker run;
// EXPORT_STORES=local or =s3 for one store, both by default; BENCH_PROFILE=dir: each measured
// server writes a V8 CPU profile there when it stops, bench/cpu-profile.cjs)
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { type LocalS3, startS3 } from '../e2e/fixtures/s3';
import { startServer } from '../e2e/fixtures/server';
import { MB, groupRssMB, variedSizes, watchRss } from './measure';
import { sendInline } from './send-inline';

const SIZE = Number(process.env.EXPORT_BYTES ?? 2 * 1024 ** 3);
const COUNT = Number(process.env.EXPORT_VERSIONS ?? 3000);
const run = promisify(execFile);

async function zipRate(dir: string): Promise<number> {
  const t = performance.now();
  await run('sh', ['-c', `cd '${dir}' && zip -0 -r -q - . > /dev/null`], { maxBuffer: 1 << 20 });
  return SIZE / MB / ((performance.now() - t) / 1000);
}

/** Every object of the bucket read by GetObject, 8 at a time, bodies discarded: MB/s. */
async function s3Rate(s3: LocalS3): Promise<{ rate: number; objects: number }> {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const keys: string[] = [];
  for (let token: string | undefined; ; ) {
    const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key?.startsWith('sha256/')) keys.push(o.Key);
    token = page.NextContinuationToken;
    if (!token) break;
  }
  let bytes = 0;
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < keys.length) {
        const got = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: keys[next++] }));
        for await (const chunk of got.Body as AsyncIterable<Uint8Array>) bytes += chunk.length;
      }
    }),
  );
  client.destroy();
  return { rate: bytes / MB / ((performance.now() - t) / 1000), objects: keys.length };
}

async function measure(label: string, env: Record<string, string>, files: string, list: number[], s3?: LocalS3) {
  const dir = process.env.BENCH_PROFILE && path.resolve(process.env.BENCH_PROFILE);
  if (dir) await mkdir(dir, { recursive: true });
  const profile: Record<string, string> = dir
    ? { BENCH_PROFILE: dir, NODE_OPTIONS: `--require ${path.resolve(__dirname, 'cpu-profile.cjs')}` }
    : {};
  const server = await startServer({ database: 'pglite', env: { ...env, ...profile } });
  try {
    const auth = { Authorization: `Bearer ${server.adminKey}`, 'Content-Type': 'application/json' };
    const owner = await (await fetch(`${server.url}/admin/v1/owners`, { method: 'POST', headers: auth, body: '{"name":"bench"}' })).json();
    const key = { Authorization: `Bearer ${owner.api_keys[0].key}`, 'Content-Type': 'application/json' };
    const entry = await (await fetch(`${server.url}/silo/v1/entries`, { method: 'POST', headers: key, body: '{}' })).json();
    // The same bytes as the files zip reads, sent inline.
    await sendInline({ url: server.url, authorization: key.Authorization, entryId: entry.id, dir: files, count: list.length });
    const zip = await zipRate(files);
    const today = new Date().toISOString().slice(0, 10);
    const baseline = groupRssMB(server.pid);
    const rss = watchRss(server.pid);
    const t = performance.now();
    const got = await run('curl', [
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{size_download}',
      '-H',
      `Authorization: ${key.Authorization}`,
      `${server.url}/silo/v1/export?from=${today}&to=${today}`,
    ]);
    const seconds = (performance.now() - t) / 1000;
    const peak = rss.stop();
    const [status, bytes] = got.stdout.split(' ').map(Number);
    if (status !== 200 || bytes < SIZE) throw new Error(`export: ${got.stdout}`);
    const rate = bytes / MB / seconds;
    console.log(
      `${label}: export ${rate.toFixed(0)} MB/s = ${(rate / zip).toFixed(2)} × zip -0 (${zip.toFixed(0)} MB/s; target ≥ 0.50); server RSS peak − baseline ${Math.max(0, peak - baseline).toFixed(0)} MB (target ≤ 100)`,
    );
    if (s3) {
      const alone = await s3Rate(s3);
      console.log(
        `${label}: s3rver alone serves its ${alone.objects} objects at ${alone.rate.toFixed(0)} MB/s (GetObject, 8 at a time): the export is ${(rate / alone.rate).toFixed(2)} × that`,
      );
    }
  } finally {
    await server.stop();
  }
}

async function main() {
  const dir = path.resolve('tmp', 'bench-export');
  const files = path.join(dir, 'files');
  await mkdir(files, { recursive: true });
  const list = variedSizes(SIZE, COUNT);
  console.log(`Silo auditor's export benchmark: ${(SIZE / 1024 ** 2).toFixed(0)} MiB in ${COUNT} versions\n`);
  for (let i = 0; i < list.length; i++) await writeFile(path.join(files, `${i}.bin`), randomBytes(list[i]));
  const stores = (process.env.EXPORT_STORES ?? 'local,s3').split(',');
  const s3 = stores.includes('s3') ? await startS3() : undefined;
  try {
    if (stores.includes('local')) await measure('local disk', {}, files, list);
    if (s3) await measure('S3 (s3rver)', s3.env, files, list, s3);
  } finally {
    await s3?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
