// Vitest's globalSetup (vitest.config.mts): the run's migrated templates (templates.ts), made before
// the first test file and dropped after the last, passed or failed; templates-setup.ts hands them
// to each test process.
import type { TestProject } from 'vitest/node';
import { makeTestTemplates, TEMPLATES_ENV } from './templates';

declare module 'vitest' {
  export interface ProvidedContext {
    [TEMPLATES_ENV]: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const made = await makeTestTemplates();
  project.provide(TEMPLATES_ENV, JSON.stringify(made.templates));
  return made.drop;
}
