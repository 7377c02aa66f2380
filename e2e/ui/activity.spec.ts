// Issue 22: a workspace's Activity tab shows its event log newest first (Load more), filtered by
// type and by entry, an edit's fields before → after, and "Verify" with its verdict; an entry's
// page lists its own records. A record changed behind the server's back (the test stops the
// server and edits its embedded database, triggers off) makes Verify name it.
import path from 'node:path';
import { bearer } from '../fixtures';
import { b64, createEntry, inlineFile } from '../api/helpers';
import { expect, screenshot, signIn, test } from './console';

test('Activity: newest first, Load more, filters by type and entry, an edit before → after, Verify OK', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  const owner = await newOwner('Audit Co');
  const key = owner.liveKey;
  const a = await createEntry(request, key, { name: 'Invoice A', key: 'INV-A' });
  await inlineFile(request, key, a.id, {
    name: 'inv.xml',
    category: 'format',
    key: 'xml',
    mime: 'application/xml',
    data: b64('<Invoice/>'),
  });
  const b = await createEntry(request, key, { name: 'Invoice B' });
  for (let i = 1; i <= 20; i++)
    expect((await request.patch(`/silo/v1/entries/${b.id}`, { headers: bearer(key), data: { folder: `f${i}` } })).status()).toBe(200);
  // seq: 1 key.created, 2 entry.created A, 3–4 the file, 5 entry.created B, 6–25 B's edits, 26 the console's edit

  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}/entries/${a.id}`);
  const entryActivity = page.getByRole('region', { name: 'Activity' });
  const entryRows = entryActivity.getByTestId('event-row');
  await expect(entryRows).toHaveCount(3);
  // An edit through the console shows at once on the entry's activity, before → after.
  const card = page.getByTestId('file-card').filter({ hasText: 'inv.xml' });
  await card.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit inv.xml' });
  await edit.getByLabel('Description').fill('corrected');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(card).toContainText('corrected');
  await expect(entryRows).toHaveCount(4);
  const edited = entryRows.first();
  await expect(edited).toContainText('file.updated');
  await expect(edited).toContainText('File version 1 edited');
  await expect(edited).toContainText('Ada Admin (administrator)');
  await expect(edited.getByRole('list', { name: 'Changes' }).getByRole('listitem')).toHaveCount(1);
  await expect(edited.locator('li')).toContainText('desc');
  await expect(edited.locator('del')).toHaveText('“”');
  await expect(edited.locator('ins')).toHaveText('“corrected”');
  await expect(entryRows.nth(1)).toContainText('inv.xml version 1 stored');
  await expect(entryRows.last()).toContainText('Entry “Invoice A” created with key INV-A');

  // The workspace's tab: newest first, a page at a time.
  await page.goto(`/workspaces/${owner.id}`);
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page).toHaveURL(/tab=activity/);
  const rows = page.getByRole('table', { name: 'Activity' }).getByTestId('event-row');
  const seqs = () => rows.locator('td:last-child').allInnerTexts();
  const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => String(from - i));
  await expect(rows).toHaveCount(20);
  expect(await seqs()).toEqual(range(26, 7));
  await expect(rows.first()).toContainText('file.updated');
  await expect(rows.first().locator('ins')).toHaveText('“corrected”');
  await expect(rows.nth(1)).toContainText('entry.updated');
  await expect(rows.nth(1).locator('li')).toContainText('folder');
  await expect(rows.nth(1).locator('del')).toHaveText('“f19”');
  await expect(rows.nth(1).locator('ins')).toHaveText('“f20”');
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'activity');
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(26);
  expect(await seqs()).toEqual(range(26, 1));
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await expect(rows.last()).toContainText('key.created');
  await expect(rows.last()).toContainText('ADMIN_API_KEY (admin key)');

  // By type (the catalogue's), newest first
  await page.getByLabel('Type').selectOption('entry.created');
  await expect(page).toHaveURL(/type=entry\.created/);
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Entry “Invoice B” created');
  await expect(rows.last()).toContainText('Entry “Invoice A” created');
  // By entry, typed…
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(rows).toHaveCount(26); // the pages read before, read again
  await page.getByLabel('Entry id').fill('not-an-id');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('must be an entry id (a UUID)')).toBeVisible();
  await page.getByLabel('Entry id').fill(a.id);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(rows).toHaveCount(4);
  expect(await seqs()).toEqual(['26', '4', '3', '2']);
  // …with a type too, and from a row's "only" button
  await page.getByLabel('Type').selectOption('file.stored');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('inv.xml version 1 stored');
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(rows).toHaveCount(26);
  await rows
    .nth(1)
    .getByRole('button', { name: `Only the activity of entry ${b.id}` })
    .click();
  await expect(page.getByLabel('Entry id')).toHaveValue(b.id);
  await expect(rows).toHaveCount(20);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(rows).toHaveCount(21);
  expect(await seqs()).toEqual([...range(25, 5)]);
  // Back returns to the filter before
  await page.goBack();
  await expect(page.getByLabel('Entry id')).toHaveValue('');
  await expect(rows).toHaveCount(26);
  expect(await seqs()).toEqual(range(26, 1));

  // Verify: the server recomputes the chain
  await page.getByRole('button', { name: 'Verify' }).click();
  const verdict = page.getByRole('status', { name: 'Verification result' });
  await expect(verdict).toContainText('OK');
  await expect(verdict).toContainText('The chain is intact: 26 records');
  await expect(verdict).toContainText('Head: record 26');

  // The sandbox is another chain
  await page.getByLabel('Environment').selectOption('sandbox');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('key.created');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(verdict).toContainText('The chain is intact: 1 record');
});

test('Verify names the first record changed behind the server’s back', async ({ page, adminAccount, newOwner, request, server }) => {
  const owner = await newOwner('Forged Co');
  for (const name of ['One', 'Two', 'Three']) await createEntry(request, owner.liveKey, { name });
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}?tab=activity`);
  const rows = page.getByRole('table', { name: 'Activity' }).getByTestId('event-row');
  await expect(rows).toHaveCount(4);
  await page.getByRole('button', { name: 'Verify' }).click();
  const verdict = page.getByRole('status', { name: 'Verification result' });
  await expect(verdict).toContainText('The chain is intact: 4 records');

  // The server's embedded database belongs to its process: stop it, edit record 3 with the
  // append-only triggers off (as someone with the files could), start it again.
  await server.kill();
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const db = await PGlite.create(path.join(server.dataDir, 'db'), { extensions: { pg_trgm } });
  try {
    await db.exec(
      `BEGIN; ALTER TABLE events DISABLE TRIGGER ALL; UPDATE events SET data = '{"name": "Forged"}' WHERE owner_id = '${owner.id}' AND sandbox = false AND seq = 3; ALTER TABLE events ENABLE TRIGGER ALL; COMMIT;`,
    );
  } finally {
    await db.close();
  }
  await server.restart();

  await page.reload();
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('Entry “Forged” created'); // the list shows what is stored
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(verdict).toContainText('Failed');
  await expect(verdict).toContainText('The chain is broken at record 3');
  await expect(verdict).toContainText('record 3 is not what its hash says');
  await expect(verdict).toContainText('2 records checked before it; last good record 2');
  await screenshot(page, 'activity-verify-failed');
});
