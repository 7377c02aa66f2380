// Who may call /admin/v1: the ADMIN_API_KEY or a console admin; console members may read (and
// for enrollments, switch) what belongs to their own workspaces.
import type { Principal } from '../access/principal';
import { getDb, type Db } from '../db/client';
import { ApiError } from '../errors';
import { authenticate, type CallerRequest } from './auth';

export interface AdminContext {
  db: Db;
  principal: Principal;
  /** undefined: every owner; otherwise the workspaces a member belongs to */
  onlyOwners?: string[];
}

export async function adminContext(req: CallerRequest, opts: { members?: boolean } = {}): Promise<AdminContext> {
  const principal = await authenticate(req);
  const db = await getDb();
  if (principal.kind === 'admin_key' || (principal.kind === 'user' && principal.admin)) return { db, principal };
  if (opts.members && principal.kind === 'user') return { db, principal, onlyOwners: principal.ownerIds };
  throw new ApiError('forbidden', 'Only instance administrators may do this');
}
