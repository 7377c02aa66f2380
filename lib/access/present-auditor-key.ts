// An auditor's key as the API shows it: never its secret (only the create answer adds that).
import type { AuditorKey } from '../db/generated/client';
import type { AuditorKeyRecord } from '../schemas/auditor-keys';

const day = (d: Date) => d.toISOString().slice(0, 10);

export function presentAuditorKey(k: AuditorKey): AuditorKeyRecord {
  return {
    id: k.id,
    prefix: k.prefix,
    sandbox: k.sandbox,
    from: day(k.periodStart),
    to: day(k.periodEnd),
    expires_at: k.expiresAt.toISOString(),
    note: k.note,
    created_at: k.createdAt.toISOString(),
    revoked_at: k.revokedAt?.toISOString() ?? null,
  };
}
