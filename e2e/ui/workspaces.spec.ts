// Issue 13: workspaces and applications renamed from the console, the storage a workspace uses,
// and every console page at phone width (390 × 844) without a page-wide horizontal scroll.
import type { Page } from '@playwright/test';
import { b64, createEntry, inlineFile } from '../api/helpers';
import { expect, screenshot, signIn, test } from './console';

test('rename a workspace and an application; the storage each workspace uses', async ({ page, adminAccount, admin, newOwner, request }) => {
  const owner = await newOwner('Vandelay');
  const entry = await createEntry(request, owner.liveKey, { name: 'TPS reports' });
  await inlineFile(request, owner.liveKey, entry.id, { name: 'report.bin', data: b64(Buffer.alloc(1234, 1)) });
  const app = await (await admin.post('/admin/v1/apps', { data: { name: 'Old app name' } })).json();

  await signIn(page, adminAccount);
  const row = page.getByRole('row', { name: /Vandelay/ });
  const size = row.getByTestId('usage-size');
  await expect(size).toHaveText('1.2 KB');
  await expect(size).toHaveAttribute('title', '1,234 bytes');
  await screenshot(page, 'workspaces-storage');

  // Renamed from the list…
  await row.getByRole('button', { name: 'Rename workspace Vandelay' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename workspace' });
  await expect(dialog.getByLabel('Workspace name')).toHaveValue('Vandelay');
  await dialog.getByLabel('Workspace name').fill('');
  await dialog.getByLabel('Workspace name').fill('   ');
  await dialog.getByLabel('Workspace name').fill('Kramerica');
  await screenshot(page, 'rename');
  await dialog.getByRole('button', { name: 'Save name' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('link', { name: 'Kramerica' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Vandelay' })).toHaveCount(0);

  // …and from its page, where a bad name shows the API's answer and changes nothing.
  await page.getByRole('link', { name: 'Kramerica' }).click();
  await expect(page.getByRole('heading', { name: 'Kramerica', level: 1 })).toBeVisible();
  await expect(page.getByTestId('usage')).toContainText('1.2 KB in 1 file version, 1 entry');
  await page.getByRole('button', { name: 'Rename workspace Kramerica' }).click();
  const again = page.getByRole('dialog', { name: 'Rename workspace' });
  await again.getByLabel('Workspace name').fill('x'.repeat(256));
  await again.getByRole('button', { name: 'Save name' }).click();
  await expect(again.locator('.error-note')).toContainText('at most 255');
  await again.getByLabel('Workspace name').fill('Kramerica Inc');
  await again.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('heading', { name: 'Kramerica Inc', level: 1 })).toBeVisible();
  expect((await (await admin.get(`/admin/v1/owners/${owner.id}`)).json()).name).toBe('Kramerica Inc');

  // An application keeps its credentials when renamed.
  await page.getByRole('link', { name: 'Applications' }).click();
  await page.getByRole('button', { name: 'Rename application Old app name' }).click();
  const appDialog = page.getByRole('dialog', { name: 'Rename application' });
  await appDialog.getByLabel('Application name').fill('Billing');
  await appDialog.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('row', { name: /Billing/ })).toContainText(app.client_id);
  const authorized = await request.post('/access/v1/enrollment/authorize', {
    headers: { 'X-Owner-Key': owner.liveKey },
    data: { client_id: app.client_id, client_secret: app.client_secret, owner_id: owner.id },
  });
  expect(authorized.status()).toBe(200);
});

/** No page-wide horizontal scroll, and every size on one line. */
async function fitsThePhone(page: Page, what: string) {
  const widths = await page.evaluate(() => ({ scroll: document.scrollingElement?.scrollWidth ?? 0, inner: window.innerWidth }));
  expect(widths.scroll, `${what} scrolls sideways`).toBeLessThanOrEqual(widths.inner);
  const wrapped = await page.evaluate(() => {
    const sizeText = /^\s*\d+(\.\d+)?\s(B|KB|MB|GB|TB)\s*$/;
    const sizes = [...document.querySelectorAll<HTMLElement>('body *')].filter(
      (el) => el.childElementCount === 0 && sizeText.test(el.textContent ?? '') && el.getClientRects().length > 0,
    );
    // the lines the text itself takes (a table cell may be taller than its text)
    const lines = (el: HTMLElement) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size;
    };
    return sizes.filter((el) => lines(el) > 1).map((el) => el.textContent);
  });
  expect(wrapped, `${what}: sizes on two lines`).toEqual([]);
}

test('every console page fits a phone (390 × 844)', async ({ browser, baseURL, page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('A workspace with a rather long name for a phone');
  const entry = await createEntry(request, owner.liveKey, { name: 'Quarterly report with a long name', folder: 'reports/2026/q3' });
  await inlineFile(request, owner.liveKey, entry.id, { name: 'numbers.txt', mime: 'text/plain', data: b64('1,2,3\n'.repeat(2000)) });
  await inlineFile(request, owner.liveKey, entry.id, { name: 'numbers.txt', mime: 'text/plain', data: b64('4,5,6\n'.repeat(3000)) });
  await page.setViewportSize({ width: 390, height: 844 });

  const signedOut = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const out = await signedOut.newPage();
  await out.goto('/signin');
  await expect(out.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await fitsThePhone(out, 'sign in');
  await signedOut.close();

  await signIn(page, adminAccount);
  const pages: [string, string, (p: Page) => Promise<void>][] = [
    ['/workspaces', 'workspaces', (p) => expect(p.getByTestId('usage-size').first()).toBeVisible()],
    [`/workspaces/${owner.id}`, 'workspace entries', (p) => expect(p.getByRole('link', { name: entry.name as string })).toBeVisible()],
    [`/workspaces/${owner.id}?tab=keys`, 'workspace keys', (p) => expect(p.getByRole('button', { name: 'New live key' })).toBeVisible()],
    [
      `/workspaces/${owner.id}?tab=retention`,
      'workspace retention',
      async (p) => {
        await p.getByRole('button', { name: 'Add rule' }).click();
        await expect(p.getByTestId('retention-example')).toBeVisible();
      },
    ],
    [`/workspaces/${owner.id}/entries/${entry.id}`, 'entry', (p) => expect(p.getByText('numbers.txt').first()).toBeVisible()],
    ['/apps', 'applications', (p) => expect(p.getByRole('heading', { name: 'Applications', level: 1 })).toBeVisible()],
    ['/enrollments', 'enrollments', (p) => expect(p.getByRole('button', { name: 'Enroll' })).toBeVisible()],
    ['/users', 'users', (p) => expect(p.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible()],
  ];
  for (const [path, what, ready] of pages) {
    await page.goto(path);
    await ready(page);
    await fitsThePhone(page, what);
    if (what === 'workspace keys') await screenshot(page, 'workspace-keys-phone', true);
    if (what === 'entry') await screenshot(page, 'entry-phone', true);
  }
});
