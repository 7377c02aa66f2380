// Issue 24: a workspace's Webhooks tab — add an endpoint with types picked from the catalogue (its
// secret shown once, and it signs what the receiver gets), a test message and the records it
// asked for in its deliveries with their status and body, Retry after a failure, Disable.
import { Webhook } from 'standardwebhooks';
import { type Receiver, startReceiver } from '../../lib/testing/webhook-receiver';
import { createEntry } from '../api/helpers';
import { WEBHOOKS_TO_LOOPBACK } from '../fixtures';
import { expect, signIn, test } from './console';

// Deliveries go to a receiver on loopback over http.
test.use({ serverEnv: WEBHOOKS_TO_LOOPBACK });

let rx: Receiver;
test.beforeEach(async () => {
  rx = await startReceiver();
});
test.afterEach(() => rx.close());

test('Webhooks: add with types, secret once, test message, deliveries with status and body, retry, disable', async ({
  page,
  adminAccount,
  newOwner,
  request,
}) => {
  const owner = await newOwner('Hooked Co');
  await signIn(page, adminAccount);
  await page.goto(`/workspaces/${owner.id}?tab=webhooks`);
  const panel = page.getByRole('region', { name: 'Webhooks' });
  await expect(panel.getByText('No endpoints')).toBeVisible();
  await panel.getByRole('button', { name: 'Add endpoint' }).click();
  await panel.getByLabel('URL').fill(rx.url);
  await panel.getByLabel('Description').fill('ERP');
  await panel.getByLabel('All types').uncheck();
  await panel.getByLabel('entry.created').check();
  await panel.getByRole('button', { name: 'Add endpoint' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'New webhook endpoint' });
  await expect(dialog).toContainText('shown only once');
  const secret = (await dialog.getByTestId('secret-value').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^whsec_/);
  await dialog.getByRole('button', { name: 'Close' }).click();
  const row = panel.getByTestId('webhook-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(rx.url);
  await expect(row).toContainText('entry.created');
  await expect(row).toContainText('enabled');

  await row.getByRole('button', { name: 'Send test' }).click();
  const deliveries = page.getByTestId('delivery-row');
  await expect(deliveries.first()).toContainText('webhook.test');
  await expect(deliveries.first()).toContainText('succeeded', { timeout: 15_000 });
  expect(new Webhook(secret).verify(rx.received[0].body, rx.received[0].headers as Record<string, string>)).toMatchObject({
    type: 'webhook.test',
  });

  // a record it asked for, refused by the receiver: its status and body show, then Retry sends it
  rx.answer = () => ({ status: 500, body: 'receiver broken' });
  await createEntry(request, owner.liveKey, { name: 'Invoice 1' });
  await expect(deliveries).toHaveCount(2, { timeout: 15_000 });
  const failed = deliveries.first();
  await expect(failed).toContainText('entry.created');
  await expect(failed).toContainText('500', { timeout: 15_000 });
  await expect(failed).toContainText('receiver broken');
  await expect(failed).toContainText('pending');
  rx.answer = () => ({ status: 204 });
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(failed).toContainText('succeeded', { timeout: 15_000 });

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row).toContainText('disabled');
  await expect(row.getByRole('button', { name: 'Send test' })).toBeDisabled();
  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(row).toContainText('enabled');
});
