// Who may call /admin/v1: the ADMIN_API_KEY or a console admin; console members may read (and
// for enrollments, switch) what belongs to their own workspaces.
import { eventActorOf, scopeOf, type Principal } from '../access/principal';
import type { EventActor } from '../events/catalogue';
import { getDb, type Db } from '../db/client';
import type { Scope } from '../db/scope';
import { ApiError } from '../errors';
import { authenticate, type CallerRequest } from './auth';

export interface AdminContext {
  db: Db;
  principal: Principal;
  /** every owner for an administrator; a member's own workspaces otherwise */
  scope: Scope;
  /** who the event log names for the changes this request makes */
  actor: EventActor;
}

export async function adminContext(req: CallerRequest, opts: { members?: boolean } = {}): Promise<AdminContext> {
  const principal = await authenticate(req);
  const db = await getDb();
  const admin = principal.kind === 'admin_key' || (principal.kind === 'user' && principal.admin);
  if (admin || (opts.members && principal.kind === 'user'))
    return { db, principal, scope: scopeOf(principal), actor: eventActorOf(principal) };
  throw new ApiError('forbidden', 'Only instance administrators may do this');
}
