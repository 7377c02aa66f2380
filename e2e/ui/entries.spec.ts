// Issue 4: the entry browser pages with the API's keyset cursor (scrolling or "Load more"),
// filters by environment, folder (the folder tree) and key, and opens an entry.
import { createEntry } from '../api/helpers';
import { expect, signIn, test } from './console';

test('entries page by keyset as you scroll; filters by folder, key and environment', async ({ page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('Many Co');
  for (let i = 1; i <= 45; i++)
    await createEntry(request, owner.liveKey, {
      name: `Invoice ${String(i).padStart(2, '0')}`,
      folder: i % 3 === 0 ? 'credit-notes' : 'invoices',
      key: `inv-${i}`,
    });
  await createEntry(request, owner.sandboxKey, { name: 'Sandbox only' });
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}`);

  const rows = page.getByRole('region', { name: 'Entries' }).locator('tbody tr');
  await expect(rows).toHaveCount(20); // one page, newest first
  await expect(rows.first()).toContainText('Invoice 45');
  // Scrolling to the end fetches the next pages; the last one says there is no more.
  // (Pages may arrive faster than a wheel: count what has loaded, not each page as it comes.)
  await rows.last().scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 5000);
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(40);
  await expect(async () => {
    await page.mouse.wheel(0, 5000);
    await expect(rows).toHaveCount(45, { timeout: 1_000 });
  }).toPass();
  await expect(rows.last()).toContainText('Invoice 01');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  await page.getByRole('button', { name: 'credit-notes, 15 entries' }).click();
  await expect(rows).toHaveCount(15);
  await page.getByRole('button', { name: 'All entries' }).click();
  await page.getByLabel('Key', { exact: true }).fill('inv-7');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Invoice 07');

  await page.getByLabel('Key', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByLabel('Environment').selectOption('sandbox');
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('link', { name: 'Sandbox only' }).click();
  await expect(page.getByRole('heading', { name: /Sandbox only/, level: 1 })).toContainText('sandbox');
});
