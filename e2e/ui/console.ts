// Helpers of the UI suite: the one-time setup link a server printed, an administrator made from it
// once per server, signing in through the form, and screenshots for the docs (README.md, docs/console.md).
import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { expect, test as base } from '../fixtures';
import { setupLinkIn, type SiloServer } from '../fixtures/server';

export interface Account {
  email: string;
  password: string;
}

/** The setup link the server printed at start-up (it may print it just after "ready"). */
export async function setupLink(server: SiloServer): Promise<string> {
  let link: string | undefined;
  await expect.poll(() => (link = setupLinkIn(server.output())), { timeout: 20_000 }).toBeTruthy();
  return link!;
}

export async function signIn(page: Page, account: Account, base = '') {
  await page.goto(`${base}/signin`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Workspaces', level: 1 })).toBeVisible();
}

// Test runs write their pictures to an ignored folder; `npm run screenshots` refreshes the docs'.
const ROOT = path.resolve(__dirname, '..', '..');
const SHOTS = path.resolve(ROOT, process.env.SILO_SCREENSHOTS ?? path.join('tmp', 'screenshots'));

/** A screenshot of the page (tmp/screenshots/NAME.png; docs/screenshots with npm run screenshots). */
export async function screenshot(page: Page, name: string, fullPage = false) {
  // Toasts come and go; the picture is of the page.
  await page.locator('.toasts').evaluate((el) => ((el as HTMLElement).style.visibility = 'hidden'));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
  await page.locator('.toasts').evaluate((el) => ((el as HTMLElement).style.visibility = ''));
}

/** The first administrator, created once per server through the setup link's endpoint. */
export const test = base.extend<object, { adminAccount: Account }>({
  adminAccount: [
    async ({ server }, use) => {
      const token = new URL(await setupLink(server)).searchParams.get('token');
      const account = { email: `admin-${randomUUID().slice(0, 6)}@example.com`, password: 'a long admin password' };
      const res = await fetch(`${server.url}/admin/v1/setup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, name: 'Ada Admin', ...account }),
      });
      expect(res.status, await res.text()).toBe(201);
      await use(account);
    },
    { scope: 'worker' },
  ],
});

export { expect };
