// The API reference renders the served OpenAPI document, without buttons to Scalar's hosted services.
import { expect, test } from './console';

test('the API reference shows every tag and no hosted-service buttons', async ({ page }) => {
  await page.goto('/docs');
  await expect(page.getByRole('heading', { name: 'Silo API', level: 1 })).toBeVisible();
  for (const tag of ['Entries', 'Files', 'Uploads', 'Users', 'Console']) await expect(page.getByRole('heading', { name: tag }).first()).toBeVisible();
  await expect(page.getByText('Open API Client')).toHaveCount(0);
  await expect(page.getByText(/Share|Deploy|Ask AI/)).toHaveCount(0);
  await page.screenshot({ path: 'tmp/screenshots/api-reference.png' });
});
