// Issue 11: a dropped file within the memory budget is hashed by the browser's own SHA-256
// (WebCrypto, no worker); one above it streams through hash-wasm in a Web Worker. Both give the
// placeholder the file's true sha256, which the server checks against the bytes it stores. The
// test lowers the budget (window.siloNativeHashBudget, read by lib/console/upload/hash-file.ts) so
// that a 3 MiB file is "above" it.
import type { Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { createEntry } from '../api/helpers';
import { bearer } from '../fixtures';
import { expect, signIn, test } from './console';
import { dropFiles, patternBytes } from './drop';

const MiB = 1024 * 1024;
const FILE = { name: 'scan.bin', type: 'application/octet-stream', size: 3 * MiB, seed: 5 };

/** Counts the page's Web Workers and the sizes it passed to crypto.subtle.digest. */
async function watchHashing(page: Page) {
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.addInitScript(() => {
    const w = window as unknown as { digested: number[] };
    w.digested = [];
    const digest = crypto.subtle.digest.bind(crypto.subtle);
    crypto.subtle.digest = (algorithm: AlgorithmIdentifier, data: BufferSource) => {
      w.digested.push(data.byteLength);
      return digest(algorithm, data);
    };
  });
  return { workers, digested: () => page.evaluate(() => (window as unknown as { digested: number[] }).digested) };
}

for (const path of ['native', 'stream'] as const) {
  test(`a file ${path === 'native' ? 'within' : 'above'} the memory budget is hashed ${path === 'native' ? 'by WebCrypto' : 'as a stream in a worker'}`, async ({
    page,
    adminAccount,
    newOwner,
    request,
  }) => {
    const owner = await newOwner(`Hashing ${path}`);
    const entry = await createEntry(request, owner.liveKey, { name: 'Scans' });
    const seen = await watchHashing(page);
    if (path === 'stream')
      await page.addInitScript(() => ((window as unknown as { siloNativeHashBudget: number }).siloNativeHashBudget = 1024 * 1024));
    await signIn(page, adminAccount);
    await page.goto(`/workspaces/${owner.id}/entries/${entry.id}`);

    await dropFiles(page, page.getByTestId('dropzone'), [FILE]);
    await page.getByRole('button', { name: 'Upload 1 file' }).click();
    await expect(page.getByTestId('upload-row')).toHaveAttribute('data-status', 'stored');

    const digested = (await seen.digested()).filter((n) => n === FILE.size);
    // The page starts no other worker (the bundler names this one after itself, not the hash).
    const hashWorkers = seen.workers;
    if (path === 'native') {
      expect(digested).toHaveLength(1);
      expect(hashWorkers).toEqual([]);
    } else {
      expect(digested).toEqual([]);
      expect(hashWorkers).toHaveLength(1);
    }
    const list = (await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(owner.liveKey) })).json()).list;
    const sha256 = createHash('sha256').update(patternBytes(FILE.size, FILE.seed)).digest('hex');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: FILE.name, stored: true, size: FILE.size, hash: sha256 });
  });
}
