// Who is calling, and what part of the data that caller may see (docs/api.md, Authentication).
import type { Scope } from '../db/scope';

export type Principal =
  /** an owner API key, or an enrollment token acting as its owner */
  | { kind: 'owner'; ownerId: string; sandbox: boolean; via: 'api_key' | 'enrollment' }
  /** a signed-in console user */
  | { kind: 'user'; userId: string; admin: boolean; ownerIds: string[] }
  /** the instance's ADMIN_API_KEY */
  | { kind: 'admin_key' };

export function scopeOf(p: Principal): Scope {
  if (p.kind === 'owner') return { owners: [p.ownerId], sandbox: p.sandbox };
  if (p.kind === 'user') return { owners: p.admin ? 'all' : p.ownerIds };
  return { owners: 'all' };
}
