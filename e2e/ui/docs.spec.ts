// The API reference renders the served OpenAPI document, without buttons to Scalar's hosted services.
import { expect, test } from './console';

test('the API reference shows every tag and no hosted-service buttons', async ({ page }) => {
  await page.goto('/docs');
  // Scalar parses and validates the document in the browser: seconds on a busy machine.
  await expect(page.getByRole('heading', { name: 'Silo API', level: 1 })).toBeVisible({ timeout: 60_000 });
  const sidebar = page.getByRole('navigation').first();
  for (const tag of ['Access', 'Entries', 'Files', 'Uploads', 'Workspaces', 'Apps', 'Enrollments', 'Users', 'Console'])
    await expect(sidebar.getByText(tag, { exact: true })).toBeVisible();
  await sidebar.getByText('Entries', { exact: true }).click();
  await sidebar.getByText('List entries, newest first').click();
  await expect(page.getByRole('heading', { name: 'List entries, newest first' }).first()).toBeVisible();
  await expect(page.getByText(/Open API Client|Ask AI|Share|Deploy/)).toHaveCount(0);
  await page.screenshot({ path: 'tmp/screenshots/api-reference.png' });
});
