// Webhook signing secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the
// instance's session secret (NEXTAUTH_SECRET, else $DATA_DIR/session-secret: lib/http/session-secret.ts),
// so whoever reads only the database cannot sign as Silo. Instances sharing a database share
// NEXTAUTH_SECRET already; changing it makes the stored secrets unreadable (rotate each endpoint's).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export interface SecretBox {
  seal(secret: string): string;
  open(sealed: string): string;
}

const VERSION = 'v1';

/** A box whose key is derived from `instanceSecret`. */
export function secretBox(instanceSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', instanceSecret, 'silo', 'webhook secrets', 32));
  return {
    seal(secret) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    open(sealed) {
      const [v, iv, body, tag] = sealed.split('.');
      if (v !== VERSION || !iv || !body || !tag) throw new Error('not a sealed webhook secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** A new signing secret as Standard Webhooks writes one: whsec_ and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
