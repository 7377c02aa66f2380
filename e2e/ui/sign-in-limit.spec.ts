// Issue 9, item 12: after ten wrong passwords the sign-in form says how long to wait, and the
// right password is refused meanwhile in a browser that never signed in to the account.
import { randomUUID } from 'node:crypto';
import { expect, test } from './console';

test('ten wrong passwords: "Too many attempts; try again in N min"', async ({ page, admin }) => {
  const account = { email: `locked-${randomUUID().slice(0, 8)}@example.com`, password: 'the right password' };
  expect((await admin.post('/admin/v1/users', { data: { ...account, name: 'Locked' } })).status()).toBe(201);
  await page.goto('/signin');
  await page.getByLabel('Email').fill(account.email);
  for (let i = 0; i < 10; i++) {
    await page.getByLabel('Password').fill(`wrong password ${i}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await expect(page.locator('.error-note')).toHaveText('Wrong email or password');
  }
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('.error-note')).toHaveText(/^Too many attempts; try again in 1[45] min$/);
  await expect(page).toHaveURL(/\/signin$/);
});
