// Playwright's globalSetup (playwright.config.ts): the run's migrated templates (lib/testing/templates.ts),
// named to the workers through the environment and dropped when the run ends, passed or failed.
import { makeTestTemplates, TEMPLATES_ENV } from '../lib/testing/templates';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const made = await makeTestTemplates({ pgliteDir: true });
  process.env[TEMPLATES_ENV] = JSON.stringify(made.templates);
  return made.drop;
}
