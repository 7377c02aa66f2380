// The process's blob store, chosen by configuration: STORAGE=local (a directory) or s3 (a bucket),
// and the store of file bytes every reader and writer uses (filesStore): small blobs kept in the
// database in front of it (database-store.ts).
import { S3Client } from '@aws-sdk/client-s3';
import { config, processSettings, type Config } from '../config';
import type { Db } from '../db/client';
import { must } from '../must';
import type { BlobStore } from './blob-store';
import { DatabaseStore } from './database-store';
import { LocalDiskStore } from './local-disk';
import { S3Store } from './s3-store';

const g = globalThis as unknown as { __siloStore?: BlobStore; __siloFilesStores?: WeakMap<Db, BlobStore> };

export function blobStore(): BlobStore {
  g.__siloStore ??= storeFor(config());
  return g.__siloStore;
}

export function setBlobStore(store: BlobStore) {
  g.__siloStore = store;
  g.__siloFilesStores = undefined;
}

/**
 * Where file bytes are, for everything that reads, tests, places or frees them: the database `db`
 * for small blobs, blobStore() for the rest (database-store.ts). One per database client, on
 * globalThis (Next bundles this module once per entry point).
 */
export function filesStore(db: Db): BlobStore {
  g.__siloFilesStores ??= new WeakMap();
  let store = g.__siloFilesStores.get(db);
  if (!store) {
    store = new DatabaseStore(db, blobStore(), { keepUpTo: config().SMALL_BLOB_MAX_BYTES });
    g.__siloFilesStores.set(db, store);
  }
  return store;
}

export function storeFor(c: Config): BlobStore {
  if (c.STORAGE !== 's3') return new LocalDiskStore(c.storageDir);
  return new S3Store({ client: s3Client(c), bucket: must(c.S3_BUCKET, 'S3_BUCKET'), objectLock: c.S3_OBJECT_LOCK });
}

function s3Client(c: Config): S3Client {
  const agent = { keepAlive: true, maxSockets: 256 }; // each fetch in progress holds a socket
  return new S3Client({
    endpoint: c.S3_ENDPOINT,
    region: c.S3_REGION ?? processSettings.awsRegion() ?? 'us-east-1',
    forcePathStyle: c.S3_FORCE_PATH_STYLE,
    // Unset keys leave the SDK's own chain (environment, profile, instance or task role).
    credentials: c.S3_ACCESS_KEY_ID
      ? { accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: must(c.S3_SECRET_ACCESS_KEY, 'S3_SECRET_ACCESS_KEY') }
      : undefined,
    // The SDK's default CRC32 trailers (aws-chunked bodies) are refused by many S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { httpAgent: agent, httpsAgent: agent },
  });
}
