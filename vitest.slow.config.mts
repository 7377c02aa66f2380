// `npm run test:slow`: the statistical and scale tests (*.slow.test.ts: a timing attack's odds, a
// heap limit over ten thousand versions), with vitest.config.mts's setup; `npm test` leaves them out.
import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.mts';

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['lib/**/*.slow.test.ts', 'scripts/**/*.slow.test.ts'], exclude: configDefaults.exclude },
});
