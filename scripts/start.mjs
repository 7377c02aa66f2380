// `npm start`: build if needed, then serve. The server migrates its database at start-up and
// prints its URL and, on a fresh instance, the one-time setup link.
import { spawn, spawnSync } from 'node:child_process';
import { processSetting } from '../lib/process-settings.mjs';

// Next's own variable: no usage report sent from the build or the server.
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
// SILO_START_SKIP_BUILD=1 (the tests that start the server through npm): serve the build that is
// there. A rebuild started by one test would replace .next under the servers of the others.
if (!processSetting('SILO_START_SKIP_BUILD')) {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit', env });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ['scripts/serve.mjs'], { stdio: 'inherit', env: { ...env, NODE_ENV: 'production' } });
// Every process of `npm start` passes a stop signal on and waits for the one below: npm forwards
// it to its script, whose shell `exec`s this (package.json: a shell would die of the signal and npm
// with it, leaving the server draining with nobody waiting); this forwards it to the server and
// stays until the server has drained and exited. A group kill reaches the server directly too;
// it starts its drain on the first signal and ignores the repeats (scripts/serve.mjs).
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
