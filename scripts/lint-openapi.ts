// `npm run lint:openapi`: writes the served OpenAPI document to a temporary file and lints it with
// Redocly's recommended rules (redocly.yaml). Fails on any error.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openApiDocument } from '../lib/openapi/document';

const dir = mkdtempSync(path.join(os.tmpdir(), 'silo-openapi-'));
const file = path.join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));
const bin = path.join(__dirname, '..', 'node_modules', '.bin', 'redocly');
const run = spawnSync(bin, ['lint', file, '--config', path.join(__dirname, '..', 'redocly.yaml')], {
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
rmSync(dir, { recursive: true, force: true });
process.exit(run.status ?? 1);
