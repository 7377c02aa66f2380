// A workspace's Retention tab and retention on an entry's page (issue 23, docs/api.md Retention):
// a rule added from a country preset shows the date it gives a file uploaded today; an upload then
// shows its retain-until date and mode; a delete refused with 409 `retained` shows the server's
// message; a legal hold set with its reason and lifted; an entry whose retention has passed listed
// for review and deleted.
import { b64, createEntry, inlineFile } from '../api/helpers';
import { expect, screenshot, signIn, test } from './console';
import { dropFiles } from './drop';

test('a rule from a preset, its date on an upload, a refused delete, a legal hold, the expired list', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await newOwner('Kept GmbH');
  // Stored before any rule, kept for a moment only: its retention passes during the test.
  const soon = await createEntry(request, owner.liveKey, { name: 'Old delivery note' });
  await inlineFile(request, owner.liveKey, soon.id, {
    name: 'note.txt',
    data: b64('note'),
    retain_until: new Date(Date.now() + 1500).toISOString(),
  });
  const until = `${new Date().getUTCFullYear() + 1 + 8}-01-01 00:00 UTC`;

  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}`);
  await page.getByRole('tab', { name: 'Retention' }).click();
  await expect(page).toHaveURL(/\?tab=retention$/);
  const panel = page.getByRole('region', { name: 'Retention', exact: true });
  await expect(panel).toContainText('No retention rules');

  // a preset names its country; the example date is counted as the server counts it
  await panel.getByRole('button', { name: 'Add rule' }).click();
  const form = panel.getByRole('region', { name: 'New retention rule' });
  const preset = form.getByLabel('Preset');
  await expect(preset.locator('option')).toContainText([
    'Custom',
    'Germany (DE): 8 years from the end of the year',
    'France (FR): 10 years',
    'Italy (IT): 10 years',
    'Belgium (BE): 10 years',
    'Portugal (PT): 10 years',
    'Spain (ES): 6 years',
  ]);
  await preset.selectOption({ label: 'Germany (DE): 8 years from the end of the year, §147 AO' });
  await expect(form.getByLabel('Years')).toHaveValue('8');
  await expect(form.getByLabel('Counted from')).toHaveValue('end_of_year');
  await expect(form.getByTestId('retention-example')).toContainText(`is kept until ${until}`);
  await screenshot(page, 'retention-rule-form');
  await form.getByRole('button', { name: 'Add rule' }).click();
  const rule = panel.getByTestId('retention-rule');
  await expect(rule).toHaveCount(1);
  await expect(rule).toContainText('8 years from the end of the year');
  await expect(rule).toContainText('governance');
  const rules = await (await request.get('/silo/v1/retention-rules', { headers: { Authorization: `Bearer ${owner.liveKey}` } })).json();
  expect(rules.list).toMatchObject([{ years: 8, days: 0, from: 'end_of_year', mode: 'governance' }]);

  // the entry whose retention passed, to review and delete (the rule gave it nothing: it came before)
  const expired = page.getByRole('table', { name: 'Entries whose retention has passed' }).getByTestId('expired-entry');
  await expect(async () => {
    await page.reload();
    await expect(expired).toHaveCount(1, { timeout: 1000 });
  }).toPass();
  await expect(expired).toContainText('Old delivery note');
  await expired.getByRole('button', { name: 'Delete Old delivery note' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete this entry and all its files?' })
    .getByRole('button', { name: 'Delete entry' })
    .click();
  await expect(page.getByText('Nothing to review')).toBeVisible();
  expect((await request.get(`/silo/v1/entries/${soon.id}`, { headers: { Authorization: `Bearer ${owner.liveKey}` } })).status()).toBe(404);

  // an upload gets the rule's date, shown on its version
  const entry = await createEntry(request, owner.liveKey, { name: 'Invoice 2026-17' });
  await page.goto(`/workspaces/${owner.id}/entries/${entry.id}`);
  await dropFiles(page, page.getByTestId('dropzone'), [{ name: 'invoice.xml', type: 'application/xml', text: '<Invoice>17</Invoice>' }]);
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  const card = page.getByTestId('file-card');
  const version = card.getByTestId('version-row');
  await expect(version.getByTestId('version-retention')).toContainText(`until ${until} governance`);

  // the delete is refused: the server's message is shown
  await card.getByRole('button', { name: 'Delete file' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete invoice.xml and all its versions?' })
    .getByRole('button', { name: 'Delete file' })
    .click();
  const iso = `${until.slice(0, 10)}T00:00:00.000Z`;
  await expect(page.getByRole('alert').filter({ hasText: `Retained until ${iso} (governance retention)` })).toBeVisible();
  await expect(version).toHaveCount(1);

  // a legal hold with its reason, shown on the entry and its versions; lifted
  const hold = page.getByTestId('legal-hold');
  await expect(hold).toContainText('Off.');
  await hold.getByRole('button', { name: 'Set legal hold' }).click();
  await hold.getByLabel('Reason').fill('Tax audit 2026');
  await hold.getByRole('button', { name: 'Set hold' }).click();
  await expect(hold.getByTestId('legal-hold-reason')).toHaveText('Tax audit 2026');
  await expect(version.getByTestId('version-retention')).toContainText('legal hold');
  const held = await (await request.get(`/silo/v1/entries/${entry.id}`, { headers: { Authorization: `Bearer ${owner.liveKey}` } })).json();
  expect(held).toMatchObject({ legal_hold: true, legal_hold_reason: 'Tax audit 2026' });
  await screenshot(page, 'retention-legal-hold');
  await hold.getByRole('button', { name: 'Lift legal hold' }).click();
  await page.getByRole('alertdialog', { name: 'Lift the legal hold?' }).getByRole('button', { name: 'Lift hold' }).click();
  await expect(hold).toContainText('Off.');
  await expect(hold.getByTestId('legal-hold-reason')).toHaveCount(0);
  await expect(version.getByTestId('version-retention')).not.toContainText('legal hold');
  const lifted = await (
    await request.get(`/silo/v1/entries/${entry.id}`, { headers: { Authorization: `Bearer ${owner.liveKey}` } })
  ).json();
  expect(lifted.legal_hold).toBe(false);
});
