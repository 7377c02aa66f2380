// Issue 13, finding things: the folder tree beside a workspace's entries (a folder lists its
// subtree, "All entries" everything), the search box (debounced ?q=), each row's file count, and
// "Edit entry" on the entry page (PATCH; the contract's errors shown at their fields).
import { b64, createEntry, inlineFile, sha256 } from '../api/helpers';
import { expect, screenshot, signIn, test } from './console';

test('the folder tree loads a level at a time, filters by a folder and everything below it; All entries lists everything', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  const owner = await newOwner('Folders Co');
  for (const [name, folder] of [
    ['Loose note', ''],
    ['Sales summary', 'sales'],
    ['Invoice 2026-001', 'sales/2026'],
    ['Invoice 2026-002', 'sales/2026'],
    ['Q1 report', 'sales/2026/q1'],
    ['CRM export', 'salesforce'],
    ['Supplier bill', 'purchases'],
  ])
    await createEntry(request, owner.liveKey, { name, folder });
  await signIn(page, adminAccount);
  const levels: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/silo/v1/folders') levels.push(url.searchParams.get('parent') ?? '(all)');
  });
  await page.goto(`/workspaces/${owner.id}`);
  const rows = page.getByRole('region', { name: 'Entries' }).locator('tbody tr');
  const tree = page.getByRole('navigation', { name: 'Folder tree' });
  await expect(rows).toHaveCount(7);
  // The top level first, each folder with the entries at or below it; nothing below is asked for yet.
  await expect(tree.getByRole('button', { name: 'sales, 4 entries' })).toBeVisible();
  await expect(tree.getByRole('button', { name: 'salesforce, 1 entry' })).toBeVisible();
  await expect(tree.getByRole('button', { name: 'purchases, 1 entry' })).toBeVisible();
  await expect(tree.getByRole('button', { name: 'sales/2026, 3 entries' })).toHaveCount(0);
  await expect(tree.getByRole('button', { name: 'Open salesforce' })).toHaveCount(0); // no folder below it
  expect(new Set(levels)).toEqual(new Set(['']));
  // Opening a folder loads its children, nested under it.
  await tree.getByRole('button', { name: 'Open sales', exact: true }).click();
  await expect(tree.getByRole('button', { name: 'sales/2026, 3 entries' })).toBeVisible();
  await tree.getByRole('button', { name: 'Open sales/2026' }).click();
  await expect(tree.getByRole('button', { name: 'sales/2026/q1, 1 entry' })).toBeVisible();
  await expect(tree.locator('li li li .folder-item')).toHaveAccessibleName('sales/2026/q1, 1 entry');
  expect(new Set(levels)).toEqual(new Set(['', 'sales', 'sales/2026']));
  await screenshot(page, 'folder-tree');

  await tree.getByRole('button', { name: 'sales/2026, 3 entries' }).click();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('Q1 report');
  await expect(tree.getByRole('button', { name: 'sales/2026, 3 entries' })).toHaveAttribute('aria-pressed', 'true');
  await tree.getByRole('button', { name: 'sales, 4 entries' }).click();
  await expect(rows).toHaveCount(4);
  await expect(page.getByRole('region', { name: 'Entries' })).not.toContainText('CRM export');
  // Closing a folder hides its children; a reload on a chosen folder opens the way to it.
  await tree.getByRole('button', { name: 'Close sales', exact: true }).click();
  await expect(tree.getByRole('button', { name: 'sales/2026, 3 entries' })).toHaveCount(0);
  await page.goto(`/workspaces/${owner.id}?folder=sales%2F2026%2Fq1`);
  await expect(tree.getByRole('button', { name: 'sales/2026/q1, 1 entry' })).toHaveAttribute('aria-pressed', 'true');
  await expect(rows).toHaveCount(1);
  await tree.getByRole('button', { name: 'All entries' }).click();
  await expect(rows).toHaveCount(7);

  // A new entry in a new folder shows in the tree without a reload.
  await page.getByRole('button', { name: 'New entry' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Fresh');
  await page.getByRole('dialog').getByLabel('Folder').fill('sales/2027');
  await page.getByRole('button', { name: 'Create entry' }).click();
  await expect(page.getByRole('heading', { name: 'Fresh', level: 1 })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('navigation', { name: 'Folder tree' }).getByRole('button', { name: 'sales, 5 entries' })).toBeVisible();
});

test('a level of the folder tree with more folders than a page shows them page by page', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  const owner = await newOwner('Many Folders Co');
  const clients = Array.from({ length: 53 }, (_, i) => `clients/c${String(i).padStart(2, '0')}`);
  await Promise.all(clients.map((folder, i) => createEntry(request, owner.liveKey, { name: `Client ${i}`, folder })));
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}`);
  const tree = page.getByRole('navigation', { name: 'Folder tree' });
  await tree.getByRole('button', { name: 'Open clients' }).click();
  const items = tree.locator('li li .folder-item:not(.folder-more)');
  await expect(items).toHaveCount(50);
  await expect(items.last()).toHaveAccessibleName('clients/c49, 1 entry');
  await tree.getByRole('button', { name: 'More folders in clients' }).click();
  await expect(items).toHaveCount(53);
  await expect(items.last()).toHaveAccessibleName('clients/c52, 1 entry');
  await expect(tree.getByRole('button', { name: 'More folders in clients' })).toHaveCount(0);
});

test('the search box finds entries by name, key or file name as you type, inside the chosen folder', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  const owner = await newOwner('Search Co');
  const contract = await createEntry(request, owner.liveKey, { name: 'Contract Acme', folder: 'legal', key: 'C-100%' });
  await inlineFile(request, owner.liveKey, contract.id, {
    name: 'signed_scan.pdf',
    mime: 'application/pdf',
    data: b64('x'),
    sha256: sha256('x'),
  });
  await createEntry(request, owner.liveKey, { name: 'Invoice Acme', folder: 'sales' });
  await createEntry(request, owner.liveKey, { name: 'Invoice Globex', folder: 'sales', key: 'G-1' });
  await signIn(page, adminAccount);
  const searches: string[] = [];
  page.on('request', (r) => {
    const q = new URL(r.url()).searchParams.get('q');
    if (r.url().includes('/silo/v1/entries?') && q) searches.push(q);
  });
  await page.goto(`/workspaces/${owner.id}`);
  const rows = page.getByRole('region', { name: 'Entries' }).locator('tbody tr');
  await expect(rows).toHaveCount(3);

  const search = page.getByRole('searchbox', { name: 'Search' });
  // "a" alone also finds two rows: wait for the answer to the whole word before counting.
  const answered = page.waitForResponse((r) => r.url().includes('/silo/v1/entries?') && new URL(r.url()).searchParams.get('q') === 'acme');
  await search.pressSequentially('acme', { delay: 20 });
  await answered;
  await expect(rows).toHaveCount(2);
  // Requests wait for a pause in typing: not one per key (a slow machine may pause once).
  expect(searches.at(-1)).toBe('acme');
  expect(searches.length).toBeLessThan(4);
  await screenshot(page, 'entry-search');
  await search.fill('SCAN.PDF');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Contract Acme');
  await search.fill('100%');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('C-100%');
  await search.fill('_');
  await expect(rows).toHaveCount(1); // "_" is a character, not a wildcard: only signed_scan.pdf
  await search.fill('invoice');
  await expect(rows).toHaveCount(2);
  await page.getByRole('navigation', { name: 'Folder tree' }).getByRole('button', { name: 'legal, 1 entry' }).click();
  await expect(page.getByRole('region', { name: 'Entries' }).getByText('No entries here')).toBeVisible();
  await search.fill('');
  await expect(rows).toHaveCount(1);
});

test('each entry row shows how many files it has', async ({ page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('Counts Co');
  const two = await createEntry(request, owner.liveKey, { name: 'Two files' });
  await createEntry(request, owner.liveKey, { name: 'No files' });
  for (const n of ['a.txt', 'b.txt'])
    await inlineFile(request, owner.liveKey, two.id, { name: n, mime: 'text/plain', data: b64(n), sha256: sha256(n) });
  await inlineFile(request, owner.liveKey, two.id, { name: 'a.txt', mime: 'text/plain', data: b64('v2'), sha256: sha256('v2') });
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}`);
  const region = page.getByRole('region', { name: 'Entries' });
  await expect(region.locator('tbody tr')).toHaveCount(2);
  const filesColumn = await region.locator('thead th').allTextContents();
  const at = filesColumn.indexOf('Files');
  expect(at).toBeGreaterThan(0);
  await expect(region.locator('tbody tr', { hasText: 'Two files' }).locator('td').nth(at)).toHaveText('2');
  await expect(region.locator('tbody tr', { hasText: 'No files' }).locator('td').nth(at)).toHaveText('0');
});

test('Edit entry changes name, folder, key and meta (rows or JSON); the API’s errors show at their fields', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  const owner = await newOwner('Edit Co');
  const auth = { headers: { Authorization: `Bearer ${owner.liveKey}` } };
  await createEntry(request, owner.liveKey, { name: 'Taken', key: 'TAKEN-1' });
  const e = await createEntry(request, owner.liveKey, { name: 'Draft', folder: 'inbox', key: 'D-1', meta: { source: 'mail' } });
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}/entries/${e.id}`);
  await page.getByRole('button', { name: 'Edit entry' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit entry' });
  await expect(dialog.getByLabel('Name')).toHaveValue('Draft');
  await expect(dialog.getByLabel('Meta key 1')).toHaveValue('source');
  await expect(dialog.getByLabel('Meta value 1')).toHaveValue('mail');
  await dialog.getByRole('button', { name: 'Add meta field' }).click();
  await dialog.getByLabel('Meta key 2').fill('year');
  await dialog.getByLabel('Meta value 2').fill('2026');
  await screenshot(page, 'edit-entry');

  // A key another entry has: 409 conflict, shown at the key field; nothing changed.
  await dialog.getByLabel('Key', { exact: true }).fill('TAKEN-1');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.locator('.field-error', { hasText: 'is already used' })).toBeVisible();
  await expect(dialog.getByLabel('Key', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  // A name over 255 characters: 422 validation at the name field.
  await dialog.getByLabel('Key', { exact: true }).fill('D-2');
  await dialog.getByLabel('Name').fill('x'.repeat(256));
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.locator('.field-error', { hasText: 'must be at most 255 characters' })).toBeVisible();
  expect((await (await request.get(`/silo/v1/entries/${e.id}`, auth)).json()).name).toBe('Draft');

  // The rows carry over to JSON; JSON that does not parse is refused before anything is sent.
  await dialog.getByLabel('Name').fill('Invoice 7');
  await dialog.getByLabel('Meta format').selectOption('json');
  await expect(dialog.getByLabel('Meta', { exact: true })).toHaveValue('{\n  "source": "mail",\n  "year": "2026"\n}');
  await dialog.getByLabel('Meta', { exact: true }).fill('{"source": ');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText('Meta is not valid JSON')).toBeVisible();
  await expect(dialog.locator('.field-error')).toHaveCount(0); // the server's last answer is gone
  await dialog.getByLabel('Meta', { exact: true }).fill('{"source": "erp", "year": "2026"}');
  await dialog.getByLabel('Folder').fill('sales/2026');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Invoice 7', level: 1 })).toBeVisible();
  // the entry's fields (its activity below shows the same values as an edit's after)
  await expect(page.locator('dd', { hasText: 'sales/2026' })).toBeVisible();
  await expect(page.locator('dd', { hasText: 'D-2' })).toBeVisible();
  expect(await (await request.get(`/silo/v1/entries/${e.id}`, auth)).json()).toMatchObject({
    name: 'Invoice 7',
    folder: 'sales/2026',
    key: 'D-2',
    meta: { source: 'erp', year: '2026' },
  });

  // Rows again: a key twice is refused; removing a row and emptying the key saves both.
  await page.getByRole('button', { name: 'Edit entry' }).click();
  await expect(dialog.getByLabel('Meta key 2')).toBeVisible();
  const keys = [await dialog.getByLabel('Meta key 1').inputValue(), await dialog.getByLabel('Meta key 2').inputValue()];
  expect([...keys].sort()).toEqual(['source', 'year']); // in the stored order (jsonb's)
  await dialog.getByRole('button', { name: 'Add meta field' }).click();
  await dialog.getByLabel('Meta key 3').fill('source');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText('the key "source" appears twice')).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove meta row 3' }).click();
  await dialog.getByRole('button', { name: `Remove meta row ${keys.indexOf('year') + 1}` }).click();
  await dialog.getByLabel('Key', { exact: true }).fill('');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  const cleared = await (await request.get(`/silo/v1/entries/${e.id}`, auth)).json();
  expect(cleared.key).toBeUndefined();
  expect(cleared.meta).toEqual({ source: 'erp' });
});
