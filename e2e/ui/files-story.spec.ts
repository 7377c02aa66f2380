// Issue 13, files: a version's story (who made it, its description, what it restored, exact size,
// full hash), a new version from a file's card, the category a drop suggests, links (copy, create,
// revoke) and an XML's raw bytes beside its pretty print.
import type { APIRequestContext, Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { b64, createEntry, inlineFile } from '../api/helpers';
import { bearer } from '../fixtures';
import { expect, screenshot, signIn, test } from './console';
import { dropFiles } from './drop';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const XML_V1 = '<?xml version="1.0" encoding="UTF-8"?>\n<Invoice><ID>F-7</ID><Total currency="EUR">100.00</Total></Invoice>\n';
const XML_V2 = '<?xml version="1.0" encoding="UTF-8"?>\n<Invoice><ID>F-7</ID><Total currency="EUR">110.00</Total></Invoice>\n';
const XML_V4 =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Invoice><ID>F-7</ID><Total currency="EUR">125.50</Total><Note>corrected</Note></Invoice>\n';

async function tokenOf(admin: APIRequestContext, request: APIRequestContext, owner: { id: string; liveKey: string }, appName: string) {
  const app = await (await admin.post('/admin/v1/apps', { data: { name: appName } })).json();
  const res = await request.post('/access/v1/enrollment/authorize', {
    headers: { 'X-Owner-Key': owner.liveKey },
    data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).token as string;
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('the version history tells who made each version, what it restored, its exact size and hash; a new version from the card', async ({
  page,
  adminAccount,
  newOwner,
  admin,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const owner = await newOwner('Story Co');
  const entry = await createEntry(request, owner.liveKey, { name: 'Invoice F-7' });
  const v1 = await inlineFile(request, owner.liveKey, entry.id, {
    name: 'invoice.xml',
    category: 'format',
    mime: 'application/xml',
    data: b64(XML_V1),
    desc: 'as issued',
  });
  const token = await tokenOf(admin, request, owner, 'Invoicer');
  await inlineFile(request, token, entry.id, {
    name: 'invoice.xml',
    category: 'format',
    mime: 'application/xml',
    data: b64(XML_V2),
    desc: 'corrected total',
  });
  const restored = await request.post(`/silo/v1/entries/${entry.id}/files/${v1.id}/restore`, { headers: bearer(owner.liveKey) });
  expect(restored.status()).toBe(201);
  const prefix = v1.created_by.name as string;

  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}/entries/${entry.id}`);
  const card = page.getByTestId('file-card').filter({ hasText: 'invoice.xml' });
  const rows = card.getByTestId('version-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('v3');
  await expect(rows.nth(0).getByTestId('restored-from')).toHaveText('restored from v1');
  await expect(rows.nth(0).getByTestId('created-by')).toHaveText(`${prefix} (API key)`);
  await expect(rows.nth(1).getByTestId('created-by')).toHaveText('Invoicer (app)');
  await expect(rows.nth(1).getByTestId('restored-from')).toHaveCount(0);
  await expect(rows.nth(1).getByTestId('version-desc')).toHaveText('corrected total');
  await expect(rows.nth(2).getByTestId('version-desc')).toHaveText('as issued');
  // exact bytes on hover beside the human size; the full SHA-256, copied whole
  await expect(rows.nth(1).getByTestId('version-size')).toHaveAttribute('title', `${Buffer.byteLength(XML_V2)} bytes`);
  await expect(rows.nth(1).getByTestId('version-hash')).toHaveAttribute('title', sha256(XML_V2));
  await rows.nth(1).getByRole('button', { name: 'Copy the SHA-256 of v2' }).click();
  expect(await clipboard(page)).toBe(sha256(XML_V2));
  await screenshot(page, 'version-history');

  // Upload a new version from the card: another file name, the same identity (format + name).
  await card.getByRole('button', { name: 'Upload new version' }).click();
  const dialog = page.getByRole('dialog', { name: 'New version of invoice.xml' });
  await dropFiles(page, dialog.getByTestId('version-dropzone'), [{ name: 'invoice-corrected.xml', type: 'application/xml', text: XML_V4 }]);
  const row = dialog.getByTestId('upload-row');
  await expect(row).toContainText('format · stored as invoice.xml');
  await row.getByLabel('Description').fill('second correction');
  await screenshot(page, 'new-version');
  await row.getByRole('button', { name: 'Upload invoice-corrected.xml' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText('v4');
  await expect(rows.nth(0).getByTestId('version-hash')).toHaveAttribute('data-hash', sha256(XML_V4));
  await expect(rows.nth(0).getByTestId('version-size')).toHaveAttribute('title', `${Buffer.byteLength(XML_V4)} bytes`);
  await expect(rows.nth(0).getByTestId('created-by')).toHaveText('Ada Admin (admin)');
  await expect(rows.nth(0).getByTestId('version-desc')).toHaveText('second correction');
  const list = (await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(owner.liveKey) })).json()).list;
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({
    name: 'invoice.xml',
    category: 'format',
    version: 4,
    hash: sha256(XML_V4),
    created_by: { type: 'admin' },
  });
});

test('an XML preview shows the bytes as stored beside the pretty print', async ({ page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('Raw Co');
  const entry = await createEntry(request, owner.liveKey, { name: 'Raw' });
  await inlineFile(request, owner.liveKey, entry.id, { name: 'ubl.xml', category: 'format', mime: 'application/xml', data: b64(XML_V1) });
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}/entries/${entry.id}`);
  const card = page.getByTestId('file-card').filter({ hasText: 'ubl.xml' });
  await card.getByRole('button', { name: 'Preview' }).click();
  const pre = card.locator('iframe[title="Preview of ubl.xml"]').contentFrame().locator('pre');
  await expect(card.getByRole('tab', { name: 'Pretty' })).toHaveAttribute('aria-selected', 'true');
  await expect(pre).toContainText('\n  <ID>F-7</ID>');
  await expect(pre).not.toContainText('<?xml');
  await card.getByRole('tab', { name: 'Raw' }).click();
  await expect(card.getByRole('tab', { name: 'Raw' })).toHaveAttribute('aria-selected', 'true');
  await expect(pre).toContainText('<?xml version="1.0" encoding="UTF-8"?>');
  expect(await pre.evaluate((el) => el.textContent)).toBe(XML_V1);
  await card.locator('.preview').scrollIntoViewIfNeeded();
  await screenshot(page, 'xml-raw');
});

test('a dropped PDF or XML is suggested as a format, anything else as an attachment', async ({ page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('Drop Co');
  const entry = await createEntry(request, owner.liveKey, { name: 'Drops' });
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}/entries/${entry.id}`);
  await dropFiles(page, page.getByTestId('dropzone'), [
    { name: 'invoice.pdf', type: 'application/pdf', text: '%PDF-1.4' },
    { name: 'invoice.xml', type: 'application/xml', text: '<a/>' },
    { name: 'photo.jpg', type: 'image/jpeg', text: 'jpg' },
  ]);
  const rows = page.getByTestId('upload-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: 'invoice.pdf' }).getByLabel('Category')).toHaveValue('format');
  await expect(rows.filter({ hasText: 'invoice.xml' }).getByLabel('Category')).toHaveValue('format');
  const photo = rows.filter({ hasText: 'photo.jpg' }).getByLabel('Category');
  await expect(photo).toHaveValue('attachment');
  // still the user's choice
  await photo.selectOption('format');
  await expect(photo).toHaveValue('format');
  await page.getByRole('button', { name: 'Upload 3 files' }).click();
  await expect(rows.filter({ hasText: 'photo.jpg' })).toHaveAttribute('data-status', 'stored');
  const list = (await (await request.get(`/silo/v1/entries/${entry.id}/files`, { headers: bearer(owner.liveKey) })).json()).list;
  expect(Object.fromEntries(list.map((f: { name: string; category: string }) => [f.name, f.category]))).toEqual({
    'invoice.pdf': 'format',
    'invoice.xml': 'format',
    'photo.jpg': 'format',
  });
});

test("links: copy a public file's url, create an expiring link to a private one, revoke links", async ({
  page,
  adminAccount,
  newOwner,
  request,
  playwright,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const owner = await newOwner('Link Co');
  const entry = await createEntry(request, owner.liveKey, { name: 'Shared' });
  const pub = await inlineFile(request, owner.liveKey, entry.id, { name: 'public.txt', data: b64('for everyone') });
  await inlineFile(request, owner.liveKey, entry.id, { name: 'secret.txt', data: b64('top secret'), private: true });
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}/entries/${entry.id}`);
  const pubCard = page.getByTestId('file-card').filter({ hasText: 'public.txt' });
  const secretCard = page.getByTestId('file-card').filter({ hasText: 'secret.txt' });

  await pubCard.getByRole('button', { name: 'Copy the link of public.txt' }).click();
  expect(await clipboard(page)).toBe(pub.url);
  await expect(secretCard.getByRole('button', { name: 'Copy the link of secret.txt' })).toHaveCount(0);

  await secretCard.getByRole('button', { name: 'Create link…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link to secret.txt' });
  await dialog.getByLabel('Expires after').selectOption({ label: '1 day' });
  const before = Date.now();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const shown = dialog.getByTestId('file-link-url');
  await expect(shown).toContainText('/silo/v1/files/');
  const url = (await shown.textContent()) ?? '';
  await expect(dialog.getByTestId('file-link-expiry')).toContainText('Expires');
  const expires = Date.parse((await dialog.locator('time').getAttribute('datetime')) ?? '');
  expect(Math.abs(expires - before - 86_400_000)).toBeLessThan(60_000);
  await dialog.getByRole('button', { name: 'Copy the link' }).click();
  expect(await clipboard(page)).toBe(url);
  await screenshot(page, 'file-link');

  // The link works with no cookie and no key, private as the file is.
  const anon = await playwright.request.newContext();
  const got = await anon.get(url);
  expect(got.status()).toBe(200);
  expect(await got.text()).toBe('top secret');

  await dialog.getByRole('button', { name: 'Close' }).click();
  await secretCard.getByRole('button', { name: 'Revoke links' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke links' }).click();
  await expect(page.getByText('Every link of this version was revoked')).toBeVisible();
  expect((await anon.get(url)).status()).toBe(403);
  await anon.dispose();
});
