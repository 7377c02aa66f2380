// For s3-store.test.ts: a second process that receives an upload into an S3Store and is then
// killed mid-way. argv: endpoint bucket uploadId bytes. It sends `bytes` of patterned(), then
// waits forever (the test kills it with SIGKILL: no clean-up runs, as in a crash).
import { S3Client } from '@aws-sdk/client-s3';
import { S3Store } from '../storage/s3-store';
import { patterned } from './patterned';
import { S3RVER_CREDENTIALS } from './s3rver';

const [endpoint, bucket, id, bytes] = process.argv.slice(2);
const client = new S3Client({
  endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: S3RVER_CREDENTIALS,
  requestChecksumCalculation: 'WHEN_REQUIRED',
});
async function* source() {
  yield* patterned(0, Number(bytes));
  await new Promise(() => {}); // the connection stays open; no more bytes come
}
void new S3Store({ client, bucket }).receive(id, source(), { offset: 0, maxBytes: 1e10 });
