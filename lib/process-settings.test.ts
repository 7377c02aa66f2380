// The server process's settings (process-settings.mjs): what scripts/serve.mjs reads is what config()
// holds, and a bad value is named, by both.
import { afterEach, expect, it } from 'vitest';
import { config, resetConfig } from './config';
import { processSetting, readProcessSettings } from './process-settings.mjs';

const NAMES = ['PORT', 'HOSTNAME', 'UPLOAD_IDLE_TIMEOUT_SECONDS', 'TRUSTED_PROXIES', 'SHUTDOWN_GRACE_SECONDS', 'LOG_LEVEL'];
const before = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));

afterEach(() => {
  for (const [n, v] of Object.entries(before))
    if (v === undefined) delete process.env[n];
    else process.env[n] = v;
  resetConfig();
});

function withEnv(vars: Record<string, string | undefined>) {
  for (const [n, v] of Object.entries(vars))
    if (v === undefined) delete process.env[n];
    else process.env[n] = v;
  resetConfig();
}

it('gives the defaults, an empty PORT or HOSTNAME as unset', () => {
  withEnv({
    PORT: '',
    HOSTNAME: '',
    UPLOAD_IDLE_TIMEOUT_SECONDS: undefined,
    TRUSTED_PROXIES: undefined,
    SHUTDOWN_GRACE_SECONDS: undefined,
  });
  expect(readProcessSettings().values).toMatchObject({
    PORT: 3000,
    HOSTNAME: undefined,
    UPLOAD_IDLE_TIMEOUT_SECONDS: 60,
    TRUSTED_PROXIES: '',
    SHUTDOWN_GRACE_SECONDS: 25,
  });
});

it('holds in config() what the server reads', () => {
  withEnv({
    PORT: '3111',
    HOSTNAME: '127.0.0.1',
    UPLOAD_IDLE_TIMEOUT_SECONDS: '7',
    TRUSTED_PROXIES: '10.0.0.0/8',
    SHUTDOWN_GRACE_SECONDS: '0',
  });
  const { values, problems } = readProcessSettings();
  expect(problems).toEqual([]);
  expect(config()).toMatchObject(values);
  expect(values).toMatchObject({ PORT: 3111, HOSTNAME: '127.0.0.1', UPLOAD_IDLE_TIMEOUT_SECONDS: 7, SHUTDOWN_GRACE_SECONDS: 0 });
});

it('names every bad value, and config() refuses them with its own', () => {
  withEnv({ PORT: '70000', UPLOAD_IDLE_TIMEOUT_SECONDS: '0', TRUSTED_PROXIES: '10.0.0.1, nope', LOG_LEVEL: 'loud' });
  const { problems } = readProcessSettings();
  expect(problems.map((p) => p.split(':')[0])).toEqual(['PORT', 'UPLOAD_IDLE_TIMEOUT_SECONDS', 'TRUSTED_PROXIES', 'LOG_LEVEL']);
  expect(problems[2]).toBe('TRUSTED_PROXIES: "nope" is not an IP address or CIDR');
  expect(() => processSetting('PORT')).toThrow(/^PORT: /);
  expect(() => config()).toThrow(/^Invalid configuration: .*PORT: .*UPLOAD_IDLE_TIMEOUT_SECONDS: .*TRUSTED_PROXIES: .*LOG_LEVEL: /);
});
