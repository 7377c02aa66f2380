// The console's session secret lives outside the database: NEXTAUTH_SECRET, else a 0600 file
// in the data directory, made once and reused.
import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../config';
import { sessionSecret } from './session-secret';

let dir: string;
const g = globalThis as unknown as { __siloSessionSecret?: unknown };

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-secret-'));
  process.env.DATA_DIR = dir;
  delete process.env.NEXTAUTH_SECRET;
  g.__siloSessionSecret = undefined;
  resetConfig();
});
afterEach(async () => {
  delete process.env.DATA_DIR;
  delete process.env.NEXTAUTH_SECRET;
  resetConfig();
  await rm(dir, { recursive: true, force: true });
});

describe('sessionSecret', () => {
  it('is generated once into $DATA_DIR/session-secret, mode 0600, and reused', async () => {
    const first = await sessionSecret();
    const file = path.join(dir, 'session-secret');
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    g.__siloSessionSecret = undefined; // a restart
    expect(await sessionSecret()).toBe(first);
  });

  it('makes one secret when several callers race, and tightens a loose file mode', async () => {
    const all = await Promise.all(
      Array.from({ length: 10 }, () => {
        g.__siloSessionSecret = undefined;
        return sessionSecret();
      }),
    );
    expect(new Set(all).size).toBe(1);
    const file = path.join(dir, 'session-secret');
    await chmod(file, 0o644);
    g.__siloSessionSecret = undefined;
    await sessionSecret();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('prefers NEXTAUTH_SECRET and writes no file then; refuses a short stored one', async () => {
    process.env.NEXTAUTH_SECRET = 'x'.repeat(40);
    resetConfig();
    expect(await sessionSecret()).toBe('x'.repeat(40));
    await expect(stat(path.join(dir, 'session-secret'))).rejects.toMatchObject({ code: 'ENOENT' });
    delete process.env.NEXTAUTH_SECRET;
    resetConfig();
    await writeFile(path.join(dir, 'session-secret'), 'short\n', { mode: 0o600 });
    await expect(sessionSecret()).rejects.toThrow(/shorter than 32/);
  });
});
