// The process's blob store, chosen by configuration.
import { config } from '../config';
import type { BlobStore } from './blob-store';
import { LocalDiskStore } from './local-disk';

const g = globalThis as unknown as { __siloStore?: BlobStore };

export function blobStore(): BlobStore {
  g.__siloStore ??= new LocalDiskStore(config().storageDir);
  return g.__siloStore;
}

export function setBlobStore(store: BlobStore) {
  g.__siloStore = store;
}
