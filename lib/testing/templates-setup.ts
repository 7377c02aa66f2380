// Vitest setup (vitest.config.mts): the run's templates, which templates-global-setup.ts provided,
// where testWorld() and migratedDatabase() look for them (testTemplates()).
import { inject } from 'vitest';
import { TEMPLATES_ENV } from './templates';

process.env[TEMPLATES_ENV] ??= inject(TEMPLATES_ENV);
