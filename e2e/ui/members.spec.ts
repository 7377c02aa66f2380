// Issue 4: an administrator creates a member with one workspace; the member sees that workspace
// only, and another workspace's entry answers not found, in the console as in the API.
import { bearer } from '../fixtures';
import { createEntry } from '../api/helpers';
import { expect, screenshot, signIn, test } from './console';

test('a member sees only its workspaces; another workspace’s entry is not found', async ({
  browser,
  page,
  adminAccount,
  newOwner,
  request,
  baseURL,
}) => {
  const mine = await newOwner('Member Co');
  const theirs = await newOwner('Other Co');
  const hidden = await createEntry(request, theirs.liveKey, { name: 'Not yours' });
  const own = await createEntry(request, mine.liveKey, { name: 'Yours' });

  await signIn(page, adminAccount);
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'New user' }).click();
  const form = page.getByRole('dialog', { name: 'New user' });
  const member = { email: `member-${Date.now()}@example.com`, password: 'member password 1' };
  await form.getByLabel('Email').fill(member.email);
  await form.getByLabel('Name', { exact: true }).fill('Mia Member');
  await form.getByLabel('Password').fill(member.password);
  await form.getByLabel('Member Co').check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row', { name: new RegExp(member.email) })).toContainText('Member Co');
  await screenshot(page, 'users');

  const ctx = await browser.newContext({ baseURL });
  const as = await ctx.newPage();
  await signIn(as, member);
  await expect(as.getByRole('link', { name: 'Member Co' })).toBeVisible();
  await expect(as.getByRole('link', { name: 'Other Co' })).toHaveCount(0);
  await expect(as.getByRole('link', { name: 'Users' })).toHaveCount(0);

  await as.getByRole('link', { name: 'Member Co' }).click();
  await as.getByRole('link', { name: 'Yours' }).click();
  await expect(as.getByRole('heading', { name: 'Yours', level: 1 })).toBeVisible();

  // Another workspace's entry, even by its exact address: not found, and nothing of it shown.
  await as.goto(`/workspaces/${theirs.id}/entries/${hidden.id}`);
  await expect(as.getByText('Entry not found')).toBeVisible();
  await expect(as.getByText('Not yours')).toHaveCount(0);
  await as.goto(`/workspaces/${mine.id}/entries/${hidden.id}`);
  await expect(as.getByText('Entry not found')).toBeVisible();
  await as.goto(`/workspaces/${theirs.id}`);
  await expect(as.locator('.error-note')).toContainText(/not found/i);
  // The API the console calls says the same.
  const res = await as.request.get(`/silo/v1/entries/${hidden.id}`);
  expect([res.status(), (await res.json()).key]).toEqual([404, 'not_found']);
  expect((await request.get(`/silo/v1/entries/${own.id}`, { headers: bearer(mine.liveKey) })).status()).toBe(200);
  await ctx.close();
});

test('phone width and dark theme', async ({ page, adminAccount, newOwner, request }) => {
  const owner = await newOwner('Phone Co');
  for (const name of ['March invoice', 'April invoice', 'May invoice'])
    await createEntry(request, owner.liveKey, { name, folder: 'invoices/2026' });
  await signIn(page, adminAccount);
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.goto(`/workspaces/${owner.id}`);
  await expect(page.getByRole('link', { name: 'May invoice' })).toBeVisible();
  await screenshot(page, 'workspace-dark');
  // The theme is kept across loads.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(page.getByRole('link', { name: 'May invoice' })).toBeVisible();
  // Nothing is wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'workspace-phone');
});
