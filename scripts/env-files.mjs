// Imported first by serve.mjs: the .env files join the environment (as Next loads them for the app)
// before anything reads a setting, so the server's process and the app see the same values. A
// variable already set wins over the files.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nextEnv from '@next/env'; // CommonJS: no named exports in plain node

nextEnv.loadEnvConfig(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
