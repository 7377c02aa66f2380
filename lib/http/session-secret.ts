// The secret that signs console sessions: NEXTAUTH_SECRET, else one generated once into
// $DATA_DIR/session-secret (mode 0600). Never the database: whoever can read the database must
// not be able to mint an administrator's cookie. Several instances must share NEXTAUTH_SECRET.
import { log } from '../log';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { config } from '../config';
import { loadOrCreateSecretFile } from '../secret-file';

const g = globalThis as unknown as { __siloSessionSecret?: Promise<string> };

function sessionSecretFile(): string {
  return path.join(config().DATA_DIR, 'session-secret');
}

export async function sessionSecret(): Promise<string> {
  const fromEnv = config().NEXTAUTH_SECRET;
  if (fromEnv) return fromEnv;
  if (!g.__siloSessionSecret) {
    if (config().DATABASE_URL)
      log.warn(
        `NEXTAUTH_SECRET is not set: console sessions are signed with ${sessionSecretFile()}, which other instances sharing this database do not have; set NEXTAUTH_SECRET on each of them`,
      );
    g.__siloSessionSecret = loadOrCreate(sessionSecretFile());
    g.__siloSessionSecret.catch(() => (g.__siloSessionSecret = undefined));
  }
  return g.__siloSessionSecret;
}

async function loadOrCreate(file: string): Promise<string> {
  const secret = await loadOrCreateSecretFile(file, () => randomBytes(32).toString('base64url'));
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters; delete the file to have a new one generated`);
  return secret;
}
