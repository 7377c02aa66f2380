// The audit key lives outside the database: AUDIT_SIGNING_KEY, else an Ed25519 key generated once
// into a 0600 file of the data directory and reused; anything but an Ed25519 key is refused.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../config';
import { auditKey, signBytes, verifyBytes } from './signing-key';

let dir: string;
const g = globalThis as unknown as { __siloAuditKey?: unknown; __siloAuditKeyLoaded?: unknown };
const kept = process.env.AUDIT_SIGNING_KEY;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-audit-key-'));
  process.env.DATA_DIR = dir;
  delete process.env.AUDIT_SIGNING_KEY;
  g.__siloAuditKey = undefined;
  g.__siloAuditKeyLoaded = undefined;
  resetConfig();
});
afterEach(async () => {
  delete process.env.DATA_DIR;
  if (kept === undefined) delete process.env.AUDIT_SIGNING_KEY;
  else process.env.AUDIT_SIGNING_KEY = kept;
  g.__siloAuditKey = undefined;
  g.__siloAuditKeyLoaded = undefined;
  resetConfig();
  await rm(dir, { recursive: true, force: true });
});

describe('auditKey', () => {
  it('is generated once into $DATA_DIR/audit-signing-key.pem, mode 0600, and reused after a restart', async () => {
    const first = await auditKey();
    const file = path.join(dir, 'audit-signing-key.pem');
    expect(await readFile(file, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    g.__siloAuditKey = undefined; // a restart
    const again = await auditKey();
    expect(again.keyId).toBe(first.keyId);
    const signature = signBytes(first, 'checkpoint');
    expect(verifyBytes(again.publicKey, 'checkpoint', signature)).toBe(true);
    expect(verifyBytes(again.publicKey, 'checkpoinT', signature)).toBe(false);
  });

  it('takes AUDIT_SIGNING_KEY (newlines as \\n allowed) and writes no file; refuses a key of another kind', async () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    process.env.AUDIT_SIGNING_KEY = pem.replace(/\n/g, '\\n');
    resetConfig();
    const key = await auditKey();
    expect(key.publicPem).toMatch(/BEGIN PUBLIC KEY/);
    await expect(stat(path.join(dir, 'audit-signing-key.pem'))).rejects.toMatchObject({ code: 'ENOENT' });
    g.__siloAuditKey = undefined;
    process.env.AUDIT_SIGNING_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    resetConfig();
    await expect(auditKey()).rejects.toThrow(/Ed25519/);
  });
});
