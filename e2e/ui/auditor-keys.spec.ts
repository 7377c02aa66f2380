// A workspace's "Auditor keys" tab: a key made for a period and lifetime with a note, shown once
// with its copy button, which then reads the period's entries and nothing else; listed without its
// secret; the API's refusal shown on its field; revoked, it stops working at once.
import { bearer } from '../fixtures';
import { b64, createEntry, inlineFile } from '../api/helpers';
import { expect, screenshot, signIn, test } from './console';

test("make an auditor's key, copy it once, revoke it", async ({ page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('Audited KG');
  const entry = await createEntry(request, owner.liveKey, { name: 'Invoice 5' });
  await inlineFile(request, owner.liveKey, entry.id, { name: 'inv.xml', data: b64('<Invoice>5</Invoice>') });
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);

  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}`);
  await page.getByRole('tab', { name: 'Auditor keys' }).click();
  await expect(page).toHaveURL(/\?tab=auditors$/);
  const panel = page.getByRole('region', { name: 'Auditor keys' });
  await expect(panel.getByRole('heading', { name: 'Auditor keys' })).toBeVisible();
  await expect(panel).toContainText('No auditor keys');

  // the API's refusal, on its field
  const form = panel.getByRole('form', { name: 'New auditor key' });
  await form.getByLabel('From (included)').fill(tomorrow);
  await form.getByLabel('To (excluded)').fill(today);
  await form.getByRole('button', { name: 'New auditor key' }).click();
  await expect(form).toContainText('must be after from');

  await form.getByLabel('From (included)').fill(today);
  await form.getByLabel('To (excluded)').fill(tomorrow);
  await form.getByLabel('Works for').selectOption({ label: '7 days' });
  await form.getByLabel('Note').fill('Tax audit, Finanzamt');
  await form.getByRole('button', { name: 'New auditor key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New auditor key' });
  await expect(dialog).toContainText('shown only once');
  const key = await dialog.getByTestId('secret-value').innerText();
  expect(key).toMatch(/^silo_audit_[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByRole('button', { name: 'Copy' })).toBeVisible();
  await screenshot(page, 'auditor-key-made');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // listed without its secret; the key reads the period's entry
  const row = panel.getByTestId('auditor-key');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`${today} – ${tomorrow}`);
  await expect(row).toContainText('Tax audit, Finanzamt');
  await expect(row).toContainText('Active until');
  expect(await panel.textContent()).not.toContain(key.slice(11));
  const listed = await request.get('/silo/v1/entries', { headers: bearer(key) });
  expect((await listed.json()).list.map((e: { id: string }) => e.id)).toEqual([entry.id]);
  expect((await request.post('/silo/v1/entries', { headers: bearer(key), data: {} })).status()).toBe(403);

  // revoked: refused from its next request, the row says so
  await row.getByRole('button', { name: /Revoke auditor key/ }).click();
  await page
    .getByRole('alertdialog', { name: "Revoke this auditor's key?" })
    .getByRole('button', { name: 'Revoke key', exact: true })
    .click();
  await expect(row).toContainText('Revoked');
  expect((await request.get('/silo/v1/entries', { headers: bearer(key) })).status()).toBe(401);
});
