// The store suite on a local directory.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalDiskStore } from './local-disk';
import { describeBlobStore } from './store-suite';

describeBlobStore('LocalDiskStore', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'silo-suite-'));
  return {
    store: new LocalDiskStore(root),
    reopen: () => new LocalDiskStore(root),
    close: () => rm(root, { recursive: true, force: true }),
  };
});
