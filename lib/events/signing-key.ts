// The instance's Ed25519 audit key: it signs the event log's checkpoints and the auditor's export
// manifests. AUDIT_SIGNING_KEY (PKCS#8 PEM) when set — several instances must share one — else one
// generated once into $DATA_DIR/audit-signing-key.pem (mode 0600), as the session secret is.
// GET /utils/v1/audit-key serves the public half.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { config } from '../config';
import { log } from '../log';
import { loadOrCreateSecretFile } from '../secret-file';

export interface AuditKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** the public key, SPKI PEM */
  publicPem: string;
  /** the first 16 hex digits of the SHA-256 of the public key's DER: names the key in checkpoints */
  keyId: string;
}

const g = globalThis as unknown as { __siloAuditKey?: Promise<AuditKey>; __siloAuditKeyLoaded?: AuditKey };

export function auditKey(): Promise<AuditKey> {
  if (!g.__siloAuditKey) {
    g.__siloAuditKey = loadAuditKey();
    g.__siloAuditKey.then(
      (k) => (g.__siloAuditKeyLoaded = k),
      () => (g.__siloAuditKey = undefined),
    );
  }
  return g.__siloAuditKey;
}

/**
 * The audit key, now: what signs each event record as it is appended (append-event.ts), which is
 * synchronous. Start-up awaits auditKey() first; before that, AUDIT_SIGNING_KEY or the key file
 * already written is read here, and with neither the append throws rather than write an unsigned record.
 */
export function loadedAuditKey(): AuditKey {
  if (g.__siloAuditKeyLoaded) return g.__siloAuditKeyLoaded;
  const c = config();
  const file = path.join(c.DATA_DIR, 'audit-signing-key.pem');
  if (!c.AUDIT_SIGNING_KEY && !existsSync(file))
    throw new Error('the audit key is not loaded: await auditKey() before the first event record is written');
  g.__siloAuditKeyLoaded = auditKeyOf(c.AUDIT_SIGNING_KEY ? c.AUDIT_SIGNING_KEY.replace(/\\n/g, '\n') : readFileSync(file, 'utf8'));
  return g.__siloAuditKeyLoaded;
}

async function loadAuditKey(): Promise<AuditKey> {
  const c = config();
  if (c.AUDIT_SIGNING_KEY) return auditKeyOf(c.AUDIT_SIGNING_KEY.replace(/\\n/g, '\n'));
  const file = path.join(c.DATA_DIR, 'audit-signing-key.pem');
  if (c.DATABASE_URL)
    log.warn(
      `AUDIT_SIGNING_KEY is not set: checkpoints are signed with ${file}, which other instances sharing this database do not have; set AUDIT_SIGNING_KEY on each of them`,
    );
  const pem = await loadOrCreateSecretFile(file, () =>
    generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim(),
  );
  return auditKeyOf(pem);
}

export function auditKeyOf(privatePem: string): AuditKey {
  const privateKey = createPrivateKey(privatePem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('AUDIT_SIGNING_KEY must be an Ed25519 private key (PKCS#8 PEM)');
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    privateKey,
    publicKey,
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: createHash('sha256').update(der).digest('hex').slice(0, 16),
  };
}

/** A base64 Ed25519 signature of `bytes`. */
export const signBytes = (key: AuditKey, bytes: Uint8Array | string): string =>
  sign(null, typeof bytes === 'string' ? Buffer.from(bytes) : bytes, key.privateKey).toString('base64');

/** Whether `signature` (base64) is `publicKey`'s over `bytes`. */
export function verifyBytes(publicKey: KeyObject | string, bytes: Uint8Array | string, signature: string): boolean {
  try {
    return verify(null, typeof bytes === 'string' ? Buffer.from(bytes) : bytes, publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
