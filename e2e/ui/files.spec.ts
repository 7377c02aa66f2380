// Issue 4: an entry from the console, files dropped on it (one of 50 MB) uploaded through the
// placeholder flow with progress, a second version by dropping the same name, preview, download
// and restore of an earlier version, and a broken upload that resumes where it stopped.
import type { Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync as zlibDeflate } from 'node:zlib';
import { createEntry, inlineFile } from '../api/helpers';
import { bearer } from '../fixtures';
import { expect, screenshot, signIn, test } from './console';
import { dropFiles, patternBytes } from './drop';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const MB = 1024 * 1024;

const INVOICE_V1 = '<Invoice><ID>F-1</ID><Total currency="EUR">100.00</Total></Invoice>';
const INVOICE_V2 = '<Invoice><ID>F-1</ID><Total currency="EUR">120.00</Total></Invoice>';

/** Every value a progress bar of this page shows, in order (kept in the page by an observer). */
async function watchProgress(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { seen: string[] };
    w.seen = [];
    new MutationObserver(() => {
      for (const bar of document.querySelectorAll('[role=progressbar]'))
        w.seen.push(`${bar.getAttribute('aria-label')}=${bar.getAttribute('aria-valuenow')}`);
      for (const s of document.querySelectorAll('.upload-stats')) w.seen.push(s.textContent ?? '');
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
}

async function newEntry(page: Page, ownerId: string, name: string) {
  await page.goto(`/workspaces/${ownerId}`);
  await page.getByRole('button', { name: 'New entry' }).click();
  const dialog = page.getByRole('dialog', { name: 'New entry' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Folder').fill('invoices/2026');
  await dialog.getByLabel('Meta').fill('customer = Globex\nnumber = F-1');
  await dialog.getByRole('button', { name: 'Create entry' }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  return page.url().split('/entries/')[1];
}

test('drop two files (one of 50 MB), a second version, preview, download and restore', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  test.setTimeout(240_000);
  const owner = await newOwner('Initech');
  await signIn(page, adminAccount);
  const entryId = await newEntry(page, owner.id, 'Invoice F-1');
  await expect(page.getByText('customer = Globex')).toBeVisible();
  await expect(page.getByText('No files yet')).toBeVisible();

  // The network is slowed to ~40 MB/s so progress has time to show.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 40 * MB });
  const seen = await watchProgress(page);

  const zone = page.getByTestId('dropzone');
  const big = { name: 'scan.bin', type: 'application/octet-stream', size: 50 * MB, seed: 7 };
  await dropFiles(page, zone, [{ name: 'invoice.xml', type: 'application/xml', text: INVOICE_V1 }, big]);
  const rows = page.getByTestId('upload-row');
  await expect(rows).toHaveCount(2);
  // Options are set before sending: the XML is the entry's format.
  const xmlRow = rows.filter({ hasText: 'invoice.xml' });
  await xmlRow.getByLabel('Category').selectOption('format');
  await xmlRow.getByLabel('Description').fill('The invoice as UBL');
  await page.getByRole('button', { name: 'Upload 2 files' }).click();

  await expect(rows.filter({ hasText: 'scan.bin' })).toHaveAttribute('data-status', 'uploading');
  await screenshot(page, 'uploading');
  await expect(rows.filter({ hasText: 'scan.bin' })).toHaveAttribute('data-status', 'stored', { timeout: 120_000 });
  await expect(xmlRow).toHaveAttribute('data-status', 'stored');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  // Progress was shown on the way: hashing and uploading, partly done, with speed and time left.
  const progress = await seen();
  const uploading = progress.filter((p) => p.startsWith('Uploading scan.bin=')).map((p) => Number(p.split('=')[1]));
  expect(uploading.some((v) => v > 0 && v < 100)).toBe(true);
  expect(progress.some((p) => p.startsWith('Hashing scan.bin='))).toBe(true);
  expect(progress.some((p) => /MB\/s · .+ left/.test(p))).toBe(true);

  // What the server stored is what was dropped, through the placeholder flow (never inline).
  const files = (await (await request.get(`/silo/v1/entries/${entryId}/files`, { headers: bearer(owner.liveKey) })).json()).list;
  const byName = Object.fromEntries(files.map((f: { name: string }) => [f.name, f]));
  expect(byName['scan.bin']).toMatchObject({
    stored: true,
    size: 50 * MB,
    hash: sha256(patternBytes(big.size, big.seed)),
    category: 'attachment',
  });
  expect(byName['invoice.xml']).toMatchObject({ stored: true, hash: sha256(INVOICE_V1), category: 'format', desc: 'The invoice as UBL' });

  const xmlCard = page.getByTestId('file-card').filter({ hasText: 'invoice.xml' });
  await expect(page.getByRole('heading', { name: /Formats/ })).toBeVisible();
  await expect(xmlCard.getByTestId('version-row')).toHaveCount(1);

  // Dropping the same name again makes a second version of that file.
  await page.getByRole('button', { name: 'Clear finished' }).click();
  await dropFiles(page, zone, [{ name: 'invoice.xml', type: 'application/xml', text: INVOICE_V2 }]);
  await rows.first().getByLabel('Category').selectOption('format');
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  await expect(rows.first()).toHaveAttribute('data-status', 'stored');
  await expect(xmlCard.getByTestId('version-row')).toHaveCount(2);
  await expect(xmlCard.getByTestId('version-row').first()).toContainText('current');

  // Preview the earlier version: pretty-printed XML in a sandboxed frame.
  await xmlCard.getByTestId('version-row').nth(1).getByRole('button', { name: 'Preview' }).click();
  const frame = xmlCard.locator('iframe[title="Preview of invoice.xml"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(frame.contentFrame().locator('pre')).toContainText('<Total currency="EUR">100.00</Total>');
  await expect(frame.contentFrame().locator('pre')).toContainText('\n  <ID>F-1</ID>');
  await screenshot(page, 'entry', true);

  // Download it: the bytes of version 1.
  const [download] = await Promise.all([page.waitForEvent('download'), xmlCard.getByRole('link', { name: 'Download v1' }).click()]);
  expect(download.suggestedFilename()).toBe('invoice.xml');
  expect(await readFile((await download.path())!, 'utf8')).toBe(INVOICE_V1);

  // Restore it: a new current version with version 1's bytes; the history keeps all three.
  await xmlCard.getByRole('button', { name: 'Restore v1' }).click();
  await expect(page.getByText('Version restored as the current one')).toBeVisible();
  await expect(xmlCard.getByTestId('version-row')).toHaveCount(3);
  const current = (await (await request.get(`/silo/v1/entries/${entryId}/files`, { headers: bearer(owner.liveKey) })).json()).list.find(
    (f: { name: string }) => f.name === 'invoice.xml',
  );
  expect(current.hash).toBe(sha256(INVOICE_V1));
  expect(current.previous.map((p: { hash: string }) => p.hash)).toEqual([sha256(INVOICE_V2), sha256(INVOICE_V1)]);
  const fetched = await request.get(`/silo/v1/entries/${entryId}/files/${current.id}`, { headers: bearer(owner.liveKey) });
  expect(await fetched.text()).toBe(INVOICE_V1);
});

test('a broken upload is retried and resumes where it stopped', async ({ page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('Umbrella');
  await signIn(page, adminAccount);
  const entryId = await newEntry(page, owner.id, 'Receipts');
  const file = { name: 'receipt.bin', type: 'application/octet-stream', size: 6 * MB, seed: 3 };
  const bytes = patternBytes(file.size, file.seed);
  const half = 2 * MB;

  // The first PUT "drops" after 2 MiB reached the server: the test sends those 2 MiB itself
  // (as the browser's first chunk would have), then breaks the browser's connection.
  const puts: { range: string | undefined }[] = [];
  page.on('request', (r) => r.method() === 'PUT' && puts.push({ range: r.headers()['content-range'] }));
  let broken = false;
  await page.route(/\/silo\/v1\/files\//, async (route) => {
    if (route.request().method() !== 'PUT' || broken) return route.continue();
    broken = true;
    const head = await request.put(route.request().url(), {
      headers: { 'Content-Type': file.type, 'Content-Range': `bytes 0-${half - 1}/${file.size}` },
      data: bytes.subarray(0, half),
    });
    expect(head.status()).toBe(204);
    await route.abort('connectionreset');
  });

  await dropFiles(page, page.getByTestId('dropzone'), [file]);
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  const row = page.getByTestId('upload-row');
  await expect(row).toHaveAttribute('data-status', 'failed');
  await expect(row.getByRole('alert')).toHaveText('The connection dropped; retry to resume where it stopped');
  await row.getByRole('button', { name: 'Retry' }).click();
  await expect(row).toHaveAttribute('data-status', 'stored');

  // The retry asked the server what it held and sent only the rest.
  expect(puts.map((p) => p.range)).toEqual([undefined, `bytes ${half}-${file.size - 1}/${file.size}`]);
  const list = (await (await request.get(`/silo/v1/entries/${entryId}/files`, { headers: bearer(owner.liveKey) })).json()).list;
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({ name: 'receipt.bin', stored: true, size: file.size, hash: sha256(bytes) });
});

test('an upload the server answers busy is tried again by itself after its Retry-After', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  const owner = await newOwner('Busy Co');
  await signIn(page, adminAccount);
  const entryId = await newEntry(page, owner.id, 'Busy receipts');
  const file = { name: 'busy.bin', type: 'application/octet-stream', size: 300_000, seed: 5 };
  const bytes = patternBytes(file.size, file.seed);

  // The first PUT of the bytes meets a busy server: the answer the server gives when no database
  // connection comes free in time (lib/db/busy.test.ts makes it for real), with its Retry-After.
  const puts: string[] = [];
  page.on('request', (r) => r.method() === 'PUT' && /\/silo\/v1\/files\//.test(r.url()) && puts.push(r.url()));
  let refused = false;
  await page.route(/\/silo\/v1\/files\//, async (route) => {
    if (route.request().method() !== 'PUT' || refused) return route.continue();
    refused = true;
    await route.fulfill({
      status: 503,
      headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
      body: JSON.stringify({ code: 503, key: 'busy', message: 'The server is busy; try again in 1 seconds (request id test)' }),
    });
  });

  await dropFiles(page, page.getByTestId('dropzone'), [file]);
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  const row = page.getByTestId('upload-row');
  await expect(row.getByRole('alert')).toHaveText('The server is busy; trying again in 1 s (1 of 3)');
  // no click: the queue tries again by itself
  await expect(row).toHaveAttribute('data-status', 'stored');
  expect(puts).toHaveLength(2);
  expect(puts[1]).toBe(puts[0]);
  const list = (await (await request.get(`/silo/v1/entries/${entryId}/files`, { headers: bearer(owner.liveKey) })).json()).list;
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({ name: 'busy.bin', stored: true, size: file.size, hash: sha256(bytes) });
});

/** A 2×2 PNG, made here so the test needs no fixture file. */
function tinyPng(): Buffer {
  const crc = (buf: Buffer) => {
    let c = ~0;
    for (const byte of buf) {
      c ^= byte;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const rows = Buffer.from([0, 255, 0, 0, 0, 0, 255, 0, 0, 255, 0, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlibDeflate(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('PDF and image previews in a sandboxed frame; edit a file, delete another', async ({ page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('Preview Co');
  const entry = await createEntry(request, owner.liveKey, { name: 'Scanned' });
  const pdf = await readFile(path.join(__dirname, 'invoice.pdf'));
  for (const [name, mime, bytes] of [
    ['invoice.pdf', 'application/pdf', pdf],
    ['stamp.png', 'image/png', tinyPng()],
  ] as const)
    expect(await inlineFile(request, owner.liveKey, entry.id, { name, mime, data: bytes.toString('base64') })).toMatchObject({
      stored: true,
    });
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}/entries/${entry.id}`);

  const pdfCard = page.getByTestId('file-card').filter({ hasText: 'invoice.pdf' });
  await pdfCard.getByRole('button', { name: 'Preview' }).click();
  const pdfFrame = pdfCard.locator('iframe[title="Preview of invoice.pdf"]');
  await expect(pdfFrame).toHaveAttribute('sandbox', '');
  const pageImage = pdfFrame.contentFrame().getByAltText('Page 1 of invoice.pdf');
  await expect(pageImage).toBeVisible();
  expect(await pageImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
  await pdfCard.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await screenshot(page, 'preview-pdf');

  const pngCard = page.getByTestId('file-card').filter({ hasText: 'stamp.png' });
  await pngCard.getByRole('button', { name: 'Preview' }).click();
  const pngFrame = pngCard.locator('iframe[title="Preview of stamp.png"]');
  await expect(pngFrame).toHaveAttribute('sandbox', '');
  await expect
    .poll(() =>
      pngFrame
        .contentFrame()
        .locator('img')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(2);

  // Edit a file's fields (no new version), and delete another.
  await pdfCard.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit invoice.pdf' });
  await edit.getByLabel('Description').fill('Signed copy');
  await edit.getByLabel('Meta').fill('pages = 1');
  await edit.getByLabel('Private (no public link)').check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(pdfCard).toContainText('Signed copy');
  await expect(pdfCard).toContainText('private');
  await pngCard.getByRole('button', { name: 'Delete file' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete stamp.png and all its versions?' })
    .getByRole('button', { name: 'Delete file' })
    .click();
  await expect(pngCard).toHaveCount(0);
  const list = (await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(owner.liveKey) })).json()).list;
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({ name: 'invoice.pdf', desc: 'Signed copy', meta: { pages: '1' }, private: true });
  expect(list[0].previous).toEqual([]);
});

test('the dropzone works from the keyboard: focus it, Enter, choose a file', async ({ page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('Keyboard Co');
  const entry = await createEntry(request, owner.liveKey, { name: 'Typed' });
  await signIn(page, adminAccount);
  // Listening early: Playwright turns on file-chooser interception asynchronously.
  const chooserOpened = page.waitForEvent('filechooser');
  await page.goto(`/workspaces/${owner.id}/entries/${entry.id}`);
  const zone = page.getByRole('button', { name: 'Drop files here or press Enter to choose files' });
  await expect(page.getByRole('heading', { name: 'Typed', level: 1 })).toBeVisible();
  await zone.focus();
  await page.keyboard.press('Enter');
  const chooser = await chooserOpened;
  await chooser.setFiles({ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('typed, not dropped') });
  await page.getByRole('button', { name: 'Upload 1 file' }).press('Enter');
  await expect(page.getByTestId('upload-row')).toHaveAttribute('data-status', 'stored');
  await expect(page.getByTestId('file-card').filter({ hasText: 'note.txt' })).toContainText('stored');
});
