// Issue 4: the one-time setup link makes the first administrator; sign in and out; sessions guard
// every console page. This file starts its own server: the setup link works once per instance.
import { startServer, type SiloServer } from '../fixtures/server';
import { expect, screenshot, setupLink, signIn, test } from './console';

let server: SiloServer;
test.beforeAll(async () => {
  server = await startServer({ database: 'pglite', empty: true });
});
test.afterAll(async () => server?.stop());
const at = (path: string) => server.url + path;

test('the setup link creates the first admin, once; sign out and in again', async ({ page }) => {
  const link = await setupLink(server);
  const path = new URL(link).pathname + new URL(link).search;
  const account = { email: 'first@example.com', password: 'first admin password' };

  // A signed-out visitor is sent to sign in.
  await page.goto(at('/workspaces'));
  await expect(page).toHaveURL(/\/signin$/);

  await page.goto(at(path));
  await expect(page.getByRole('heading', { name: 'Set up Silo' })).toBeVisible();
  await screenshot(page, 'setup');
  await page.getByLabel('Name').fill('First Admin');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Repeat password').fill('not the same password');
  await page.getByRole('button', { name: 'Create administrator' }).click();
  await expect(page.locator('.error-note')).toHaveText('The two passwords differ');
  await page.getByLabel('Repeat password').fill(account.password);
  await page.getByRole('button', { name: 'Create administrator' }).click();

  await expect(page.getByRole('heading', { name: 'Workspaces', level: 1 })).toBeVisible();
  await expect(page.getByText('First Admin · admin')).toBeVisible();
  await expect(page.getByText('No workspaces yet')).toBeVisible();

  // Sign out: the console is closed again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto(at('/workspaces'));
  await expect(page).toHaveURL(/\/signin$/);

  // The link is spent.
  await page.goto(at(path));
  await expect(page.getByText(/already set up|no longer valid|used/i)).toBeVisible();

  // A wrong password does not sign in; the right one does.
  await page.goto(at('/signin'));
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill('wrong password!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('.error-note')).toHaveText('Wrong email or password');
  await screenshot(page, 'sign-in');
  await signIn(page, account, server.url);
});
