// Issue 25: an e-invoice's facts in its file card, and the entry list filtered by them (the filter in
// the URL: a reload and Back bring it back).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { b64, createEntry, inlineFile } from '../api/helpers';
import { expect, signIn, test } from './console';

const samples = path.join(__dirname, '../../lib/invoices/samples');
const UBL = readFileSync(path.join(samples, 'xrechnung-ubl-invoice.xml'));
const CII = readFileSync(path.join(samples, 'factur-x-cii-invoice.xml'));

test('a file card shows its invoice facts; the entry list filters by them, kept in the URL', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  const owner = await newOwner('Facts Co');
  const ubl = await createEntry(request, owner.liveKey, { name: 'From Lieferant', folder: 'in' });
  await inlineFile(request, owner.liveKey, ubl.id, { name: 'invoice.xml', mime: 'application/xml', data: b64(UBL) });
  const cii = await createEntry(request, owner.liveKey, { name: 'To boutique', folder: 'out' });
  await inlineFile(request, owner.liveKey, cii.id, { name: 'factur-x.xml', mime: 'application/xml', data: b64(CII) });
  await createEntry(request, owner.liveKey, { name: 'Not an invoice' });
  await signIn(page, adminAccount);

  await page.goto(`/workspaces/${owner.id}`);
  const rows = page.getByRole('region', { name: 'Entries' }).locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await page.getByText('Invoice facts').click();
  await page.getByLabel('Seller VAT id').fill('de 123 456 789');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('From Lieferant');
  await expect(page).toHaveURL(/seller_vat=de\+123\+456\+789/);

  await page.getByLabel('Seller VAT id').fill('');
  await page.getByLabel('Issued to').fill('2024-02-29');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('To boutique');
  await page.reload();
  await expect(rows).toHaveCount(1);
  await expect(page.getByLabel('Issued to')).toHaveValue('2024-02-29');
  await page.goBack();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('From Lieferant');
  await expect(page.getByLabel('Seller VAT id')).toHaveValue('de 123 456 789');

  await page.goto(`/workspaces/${owner.id}/entries/${ubl.id}`);
  const facts = page.getByTestId('file-card').getByRole('region', { name: 'Invoice facts' });
  await expect(facts).toContainText('RE-2024-00042');
  await expect(facts).toContainText('Lieferant & Söhne GmbH · VAT DE123456789');
  await expect(facts).toContainText('Kunde AG · VAT DE987654321');
  await expect(facts).toContainText('1190.00 EUR');
  await expect(facts).toContainText('2024-04-14');
});
