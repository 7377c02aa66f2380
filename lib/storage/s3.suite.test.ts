// The store suite on S3: a local s3rver on a free port, a fresh bucket per test.
import { afterAll, beforeAll } from 'vitest';
import { startS3rver, type LocalS3 } from '../testing/s3rver';
import { S3Store } from './s3-store';
import { describeBlobStore } from './store-suite';

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3?.stop());

describeBlobStore('S3Store', async () => {
  const bucket = await s3.createBucket('suite');
  const clients = [s3.client()];
  return {
    store: new S3Store({ client: clients[0], bucket }),
    reopen() {
      const client = s3.client();
      clients.push(client);
      return new S3Store({ client, bucket });
    },
    async close() {
      for (const c of clients) c.destroy();
    },
  };
});
