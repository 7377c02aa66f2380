// A bucket that cannot be reached is the server's problem, told as 503 storage_unavailable, not 500.
import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { toApiError } from '../http/to-api-error';
import { freePortForTest } from '../testing/free-port';
import { expectLogged } from '../testing/log-capture';
import { S3Store } from './s3-store';

describe('S3Store with the bucket out of reach', () => {
  it('fails as storage_unavailable (503), not internal', async () => {
    expectLogged(/^blob store failure$/);
    const port = await freePortForTest();
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      maxAttempts: 1,
    });
    const store = new S3Store({ client, bucket: 'gone' });
    const err = await store.receive('u1', [Buffer.from('bytes')], { offset: 0, maxBytes: 100 }).catch((e) => e);
    expect(toApiError(err, 'req-1')).toMatchObject({ status: 503, key: 'storage_unavailable' });
    const read = await store.blobSize('0'.repeat(64)).catch((e) => e);
    expect(toApiError(read, 'req-2')).toMatchObject({ status: 503, key: 'storage_unavailable' });
    client.destroy();
  });
});
