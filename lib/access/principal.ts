// Who is calling, and what part of the data that caller may see (docs/api.md, Authentication).
import type { Period, Scope } from '../db/scope';
import { ADMIN_KEY_ACTOR, type EventActor } from '../events/catalogue';
import type { CreatedBy } from '../schemas/files';

/**
 * Who made a file version, as its `created_by` records it (docs/api.md, Versions): a plain
 * object (no secret), kept as it was when the version was made.
 */
export type Actor = CreatedBy;

export type Principal =
  /** an owner API key, or an enrollment token acting as its owner */
  | { kind: 'owner'; ownerId: string; sandbox: boolean; via: 'api_key' | 'enrollment'; actor: Actor }
  /** a signed-in console user */
  | { kind: 'user'; userId: string; admin: boolean; ownerIds: string[]; actor: Actor }
  /** the instance's ADMIN_API_KEY */
  | { kind: 'admin_key' }
  /** an auditor's key: reads one environment's period, writes nothing (docs/api.md, Auditor keys) */
  | { kind: 'auditor'; keyId: string; ownerId: string; sandbox: boolean; period: Period; actor: EventActor };

export function scopeOf(p: Principal): Scope {
  if (p.kind === 'owner') return { owners: [p.ownerId], sandbox: p.sandbox };
  if (p.kind === 'user') return { owners: p.admin ? 'all' : p.ownerIds };
  if (p.kind === 'auditor') return { owners: [p.ownerId], sandbox: p.sandbox, period: p.period };
  return { owners: 'all' };
}

/** Who an event record names as having made a change: the admin key too (docs/api.md, Events). */
export function eventActorOf(p: Principal): EventActor {
  return p.kind === 'admin_key' ? ADMIN_KEY_ACTOR : p.actor;
}

/** An application as the actor of what it does itself (authorizing for an enrollment). */
export const appActor = (app: { id: string; name: string }): EventActor => ({ type: 'app', id: app.id, name: app.name });

/** The author a new file version records; the admin key and auditors' keys make no versions. */
export function actorOf(p: Principal): Actor | null {
  return p.kind === 'admin_key' || p.kind === 'auditor' ? null : p.actor;
}

/** A console user as an author: "admin" for an instance administrator; their name, else their email. */
export const userActor = (u: { id: string; name: string; email: string; admin: boolean }): Actor => ({
  type: u.admin ? 'admin' : 'user',
  id: u.id,
  name: u.name.trim() || u.email,
});
