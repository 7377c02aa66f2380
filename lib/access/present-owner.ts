// An owner (workspace) and its API keys as the API shows them: prefixes only, never a key.
import type { ApiKey, Owner } from '../db/generated/client';
import type { ApiKeyRecord, OwnerRecord, OwnerUsage } from '../schemas/access';

const presentKey = (k: ApiKey): ApiKeyRecord => ({ id: k.id, prefix: k.prefix, sandbox: k.sandbox, created_at: k.createdAt.toISOString() });

export function presentOwner(o: Owner, keys?: ApiKey[], usage?: OwnerUsage): OwnerRecord {
  return {
    id: o.id,
    name: o.name,
    created_at: o.createdAt.toISOString(),
    ...(usage ? { usage } : {}),
    ...(keys ? { api_keys: keys.filter((k) => !k.revokedAt).map(presentKey) } : {}),
  };
}
