// Random, high-entropy credentials, shown once and kept only as sha256 hashes (docs/api.md, Credentials).
// sha256 is right for these (not argon2): they carry 256 random bits, so nothing is guessable.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export type SecretKind = 'live_key' | 'test_key' | 'token_live' | 'token_test' | 'client_secret' | 'auditor_key';

const PREFIX: Record<SecretKind, string> = {
  live_key: 'silo_live_',
  test_key: 'silo_test_',
  token_live: 'silo_tok_live_',
  token_test: 'silo_tok_test_',
  client_secret: 'silo_cs_',
  auditor_key: 'silo_audit_',
};

export function newSecret(kind: SecretKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function kindOf(secret: string): SecretKind | undefined {
  // Longest prefixes first: "silo_tok_live_" must not be read as something shorter.
  const kinds = (Object.keys(PREFIX) as SecretKind[]).sort((a, b) => PREFIX[b].length - PREFIX[a].length);
  return kinds.find((k) => secret.startsWith(PREFIX[k]));
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** What a list may show of a secret: enough to recognise it, never enough to use it. */
export function secretPrefix(secret: string): string {
  const kind = kindOf(secret);
  const head = kind ? PREFIX[kind] : '';
  return `${head}${secret.slice(head.length, head.length + 4)}…`;
}

export function newClientId(): string {
  return `app_${randomBytes(12).toString('hex')}`;
}
