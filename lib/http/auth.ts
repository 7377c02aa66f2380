// Who is calling: a Bearer credential, or the console's session cookie (same-origin mutations only).
import { noCredentials, principalFromBearer } from '../access/authenticate';
import { scopeOf, type Principal } from '../access/principal';
import { ownsWorkspace, type Scope, type Target } from '../db/scope';
import { getDb } from '../db/client';
import { config } from '../config';
import { ApiError } from '../errors';
import { UUID } from '../schemas/common';
import { requestOrigin } from './request-origin';
import { sessionPrincipal } from './session';

export interface CallerRequest {
  headers: Headers;
  method: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function bearerOf(headers: Headers): string | undefined {
  const auth = headers.get('authorization');
  if (!auth) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m) throw new ApiError('unauthorized', 'Use Authorization: Bearer <API key or token>');
  return m[1];
}

/** A Bearer credential (which must be valid), else the session's user, else undefined. */
async function principalOf(headers: Headers): Promise<Principal | undefined> {
  const db = await getDb();
  const bearer = bearerOf(headers);
  return bearer ? principalFromBearer(db, bearer, config().ADMIN_API_KEY) : sessionPrincipal(db, headers);
}

export async function authenticate(req: CallerRequest): Promise<Principal> {
  const p = await principalOf(req.headers);
  if (!p) throw noCredentials();
  if (p.kind === 'user' && !SAFE_METHODS.has(req.method.toUpperCase())) assertSameOrigin(req.headers);
  return p;
}

/**
 * Credentials on a file's link, where they are optional (a private file needs them). A Bearer
 * credential must be valid; a session cookie that does not verify is ignored, as a browser holding
 * a stale console cookie must still open a public link (a private file then answers 401).
 */
export async function optionalSiloScope(req: CallerRequest): Promise<Scope | undefined> {
  const p = await principalOf(req.headers);
  return p ? siloScope(p) : undefined;
}

/** Cookie-authenticated mutations must come from our own pages (CSRF). */
function assertSameOrigin(headers: Headers) {
  const origin = headers.get('origin');
  let ok = false;
  try {
    // requestOrigin throws on a host HTTP cannot have: no match then either.
    ok = !!origin && new URL(origin).host === requestOrigin(headers).host;
  } catch {
    ok = false;
  }
  if (!ok) throw new ApiError('forbidden', 'Cross-origin requests cannot use the console session');
}

/** The silo scope of a caller; the admin key manages the instance and holds no silo data. */
export function siloScope(p: Principal): Scope {
  if (p.kind === 'admin_key') throw new ApiError('forbidden', 'The admin key manages the instance; use an owner API key or token');
  return scopeOf(p);
}

/**
 * The owner and environment a collection request (list, create) works in. API keys and tokens
 * carry theirs; a console user names one with X-Silo-Owner (and X-Silo-Sandbox: true).
 */
export function siloTarget(p: Principal, headers: Headers): Target {
  if (p.kind === 'owner') return { ownerId: p.ownerId, sandbox: p.sandbox };
  const scope = siloScope(p);
  const ownerId = headers.get('x-silo-owner')?.trim().toLowerCase();
  if (!ownerId) throw new ApiError('bad_request', 'Name the workspace with the X-Silo-Owner header');
  // It reaches a uuid column: anything but a UUID would fail the query rather than name nothing.
  if (!UUID.test(ownerId)) throw new ApiError('bad_request', 'X-Silo-Owner must be a workspace id (a UUID)');
  if (!ownsWorkspace(scope, ownerId)) throw new ApiError('not_found', 'Workspace not found');
  return { ownerId, sandbox: sandboxHeader(headers.get('x-silo-sandbox')) };
}

/** X-Silo-Sandbox: absent or false is live, true is the sandbox; anything else is a mistake to point out. */
function sandboxHeader(value: string | null): boolean {
  const v = value?.trim().toLowerCase();
  if (v === undefined || v === '' || v === 'false') return false;
  if (v === 'true') return true;
  throw new ApiError('bad_request', 'X-Silo-Sandbox must be true or false');
}

/**
 * Retention rules and legal holds are the workspace's to manage: its API keys and console users.
 * An enrollment token (an application's) may read them, never change them.
 */
export function assertManagesRetention(p: Principal): void {
  if (p.kind === 'owner' && p.via === 'enrollment')
    throw new ApiError(
      'forbidden',
      "Retention is managed with the workspace's API key or in the console; an enrollment token may only read it",
    );
}
