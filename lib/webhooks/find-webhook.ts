// A caller's webhook endpoints: one by id within its scope (404 otherwise), a page of a
// workspace's environment, and the record the API shows (never a secret).
import type { Db, Tx } from '../db/client';
import { afterCursor, NEWEST_FIRST, page } from '../db/cursor';
import type { Webhook } from '../db/generated/client';
import { scopeWhere, type Scope, type Target } from '../db/scope';
import { ApiError } from '../errors';

export const webhookNotFound = () => new ApiError('not_found', 'Webhook not found');

export async function findWebhook(db: Db | Tx, scope: Scope, id: string): Promise<Webhook> {
  const hook = await db.webhook.findFirst({ where: { id, ...scopeWhere(scope) } });
  if (!hook) throw webhookNotFound();
  return hook;
}

export async function listWebhooks(db: Db, target: Target, q: { limit: number; cursor?: string }) {
  const rows = await db.webhook.findMany({
    where: { ownerId: target.ownerId, sandbox: target.sandbox, ...afterCursor(q.cursor) },
    orderBy: NEWEST_FIRST,
    take: q.limit + 1,
  });
  const p = page(rows, q.limit, q.cursor);
  return { ...p, list: p.list.map(presentWebhook) };
}

export function presentWebhook(w: Webhook) {
  return {
    id: w.id,
    url: w.url,
    types: w.types,
    description: w.description,
    sandbox: w.sandbox,
    disabled: w.disabled,
    disabled_reason: (w.disabledReason ?? null) as 'manual' | 'gone' | 'failing' | null,
    failing_since: w.failingSince?.toISOString() ?? null,
    previous_secret_until: w.previousSecretUntil && w.previousSecret ? w.previousSecretUntil.toISOString() : null,
    created_at: w.createdAt.toISOString(),
  };
}
