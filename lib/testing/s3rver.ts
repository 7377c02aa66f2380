// For tests and benches: a local S3-compatible server (s3rver) in a child process, on a free port,
// keeping its objects in a temp directory. Stopping it ends only that child and removes that directory.
// A child rather than in-process so that the test process's memory is the store's alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

export interface LocalS3 {
  endpoint: string;
  client(): S3Client;
  /** A fresh empty bucket, named after `hint`. */
  createBucket(hint: string): Promise<string>;
  stop(): Promise<void>;
}

// s3rver signs its list continuation tokens with DES, which OpenSSL 3 keeps in its legacy provider.
// The child ends when its stdin closes, so a test process that dies takes its s3rver with it.
const SERVER = `
const S3rver = require(process.argv[1]);
new S3rver({ port: 0, address: '127.0.0.1', directory: process.argv[2], silent: true })
  .run()
  .then((a) => console.log('listening ' + a.port), (err) => { console.error(err); process.exit(1); });
process.stdin.on('end', () => {
  require('node:fs').rmSync(process.argv[2], { recursive: true, force: true });
  process.exit(0);
});
process.stdin.resume();
`;

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3rver(): Promise<LocalS3> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'silo-s3rver-'));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '-e', SERVER, createRequire(import.meta.url).resolve('s3rver'), dir],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const port = await listeningPort(child);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = () =>
    new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  const admin = client();
  let n = 0;
  return {
    endpoint,
    client,
    async createBucket(hint) {
      const name = `${hint
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-')
        .slice(0, 40)}-${++n}`;
      await admin.send(new CreateBucketCommand({ Bucket: name }));
      return name;
    },
    async stop() {
      admin.destroy();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening`)));
  });
}
