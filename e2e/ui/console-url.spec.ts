// Issue 20, item 15: what the entry list shows (folder, search, key, environment) lives in the URL,
// so a bookmark, a reload and the back button bring the same view back; and the version table
// names each version's file.
import { b64, createEntry, inlineFile, sha256 } from '../api/helpers';
import { expect, signIn, test } from './console';

test('a chosen folder and a search live in the URL: reload, a bookmark and Back bring them back', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  const owner = await newOwner('Url Co');
  for (const [name, folder] of [
    ['Invoice north', 'sales'],
    ['Invoice south', 'sales/2026'],
    ['Quote east', 'sales'],
    ['Invoice west', 'purchases'],
    ['Loose note', ''],
  ])
    await createEntry(request, owner.liveKey, { name, folder });
  await createEntry(request, owner.sandboxKey, { name: 'Sandbox invoice', folder: 'tests' });
  await signIn(page, adminAccount);
  const workspace = `/workspaces/${owner.id}`;
  await page.goto(workspace);
  const rows = page.getByRole('region', { name: 'Entries' }).locator('tbody tr');
  const tree = page.getByRole('navigation', { name: 'Folder tree' });
  const search = page.getByLabel('Search');
  await expect(rows).toHaveCount(5);

  // A folder is a step of its own (Back returns to it); the search rewrites the step it is typed in.
  await tree.getByRole('button', { name: 'sales, 3 entries' }).click();
  await expect(page).toHaveURL(/\?folder=sales$/);
  await expect(rows).toHaveCount(3);
  await search.fill('invoice');
  await expect(page).toHaveURL(/\?folder=sales&q=invoice$/);
  await expect(rows).toHaveCount(2);

  const sameView = async () => {
    await expect(rows).toHaveCount(2);
    await expect(search).toHaveValue('invoice');
    await expect(tree.getByRole('button', { name: 'sales, 3 entries' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('region', { name: 'Entries' })).not.toContainText('Quote east');
  };
  await page.reload();
  await sameView();
  // A bookmark: the URL alone, in a fresh page.
  const bookmark = page.url();
  const other = await page.context().newPage();
  await other.goto(bookmark);
  await expect(other.getByRole('region', { name: 'Entries' }).locator('tbody tr')).toHaveCount(2);
  await expect(other.getByLabel('Search')).toHaveValue('invoice');
  await other.close();

  // Another folder, then Back: the previous folder with its search; Back again: everything.
  await tree.getByRole('button', { name: 'purchases, 1 entry' }).click();
  await expect(page).toHaveURL(/\?folder=purchases&q=invoice$/);
  await expect(rows).toHaveCount(1);
  await page.goBack();
  await expect(page).toHaveURL(/\?folder=sales&q=invoice$/);
  await sameView();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${workspace}$`));
  await expect(rows).toHaveCount(5);
  await expect(search).toHaveValue('');
  await expect(tree.getByRole('button', { name: 'All entries' })).toHaveAttribute('aria-pressed', 'true');

  // The environment and the key filter too.
  await page.getByLabel('Environment').selectOption('sandbox');
  await expect(page).toHaveURL(/\?env=sandbox$/);
  await expect(rows).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel('Environment')).toHaveValue('sandbox');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Sandbox invoice');
  await page.goBack();
  await expect(rows).toHaveCount(5);
  await expect(page.getByLabel('Environment')).toHaveValue('live');
});

test('the version table names the file of each version', async ({ page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('Names Co');
  const entry = await createEntry(request, owner.liveKey, { name: 'Renamed' });
  for (const [name, data] of [
    ['draft.xml', '<a/>'],
    ['final.xml', '<b/>'],
  ])
    await inlineFile(request, owner.liveKey, entry.id, {
      name,
      key: 'invoice',
      category: 'format',
      mime: 'application/xml',
      data: b64(data),
      sha256: sha256(data),
    });
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}/entries/${entry.id}`);
  const rows = page.getByTestId('file-card').filter({ hasText: 'final.xml' }).getByTestId('version-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByTestId('version-name')).toHaveText('final.xml');
  await expect(rows.nth(1).getByTestId('version-name')).toHaveText('draft.xml');
});
