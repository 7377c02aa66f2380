// GET /silo/v1/auditor-keys: one environment's auditors' keys, newest first, revoked and expired
// ones included (an audit trail of who was given what); never a secret.
import type { Db } from '../db/client';
import type { Target } from '../db/scope';
import type { AuditorKeyRecord } from '../schemas/auditor-keys';
import { presentAuditorKey } from './present-auditor-key';

export async function listAuditorKeys(db: Db, target: Target): Promise<{ list: AuditorKeyRecord[] }> {
  const rows = await db.auditorKey.findMany({
    where: { ownerId: target.ownerId, sandbox: target.sandbox },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return { list: rows.map(presentAuditorKey) };
}
