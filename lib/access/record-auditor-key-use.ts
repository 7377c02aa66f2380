// An auditor's key's every use is on the record (docs/api.md, Auditor keys): one auditor_key.used
// per request it authenticates, written before the request is answered, refused requests included.
import type { Db } from '../db/client';
import { appendEvent } from '../events/append-event';
import type { Principal } from './principal';

export type AuditorPrincipal = Extract<Principal, { kind: 'auditor' }>;

export interface AuditorKeyUse {
  method: string;
  /** the path without its query (which may hold a url's signature) */
  path: string;
}

export async function recordAuditorKeyUse(db: Db, p: AuditorPrincipal, use: AuditorKeyUse): Promise<void> {
  await appendEvent(db, {
    type: 'auditor_key.used',
    ownerId: p.ownerId,
    sandbox: p.sandbox,
    actor: p.actor,
    data: { key_id: p.keyId, method: use.method, path: use.path },
  });
}
