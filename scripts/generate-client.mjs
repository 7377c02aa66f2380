// Generates the Prisma client offline. `prisma generate` only needs the schema engine path to
// name an existing executable (it never runs it), so we point it at node itself.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('prisma/schema.prisma')) process.exit(0);
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};
const r = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
