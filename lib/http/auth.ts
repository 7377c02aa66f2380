// Who is calling: a Bearer credential, or the console's session cookie (same-origin mutations only).
import { noCredentials, principalFromBearer } from '../access/authenticate';
import { kindOf } from '../access/secrets';
import { recordAuditorKeyUse } from '../access/record-auditor-key-use';
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
  /** the request's url (absolute, or its path): an auditor's key's use records the path */
  url?: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function bearerOf(headers: Headers): string | undefined {
  const auth = headers.get('authorization');
  if (!auth) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m) throw new ApiError('unauthorized', 'Use Authorization: Bearer <API key or token>');
  return m[1];
}

/**
 * A Bearer credential (which must be valid), else the session's user, else undefined. An
 * auditor's key is recorded as used, then refused any method but GET and HEAD (docs/api.md,
 * Auditor keys): every write, wherever it is sent, before its body is read.
 */
async function principalOf(req: CallerRequest): Promise<Principal | undefined> {
  const db = await getDb();
  const bearer = bearerOf(req.headers);
  if (!bearer) return sessionPrincipal(db, req.headers);
  const p = await principalFromBearer(db, bearer, config().ADMIN_API_KEY);
  if (p.kind === 'auditor') {
    const method = req.method.toUpperCase();
    await recordAuditorKeyUse(db, p, { method, path: pathOf(req.url) });
    if (!SAFE_METHODS.has(method)) throw readOnlyKey();
  }
  return p;
}

const readOnlyKey = () => new ApiError('read_only_key', "An auditor's key only reads: GET or HEAD");

/** The path a request was sent to, without its query; a Pages route's /api prefix (a rewrite) dropped. */
function pathOf(url: string | undefined): string {
  if (!url) return '';
  return new URL(url, 'http://internal').pathname.replace(/^\/api(?=\/(?:access|silo|utils|admin)\/)/, '');
}

/**
 * Refuses a write sent with an auditor's key, on every route (route(), nodeRoute() call this
 * first), where credentials are otherwise optional too (a file's url, a link, authorize): 403
 * read_only_key, or 401 for one that is expired, revoked or unknown. Any other Authorization is
 * left to the route, which may ignore it.
 */
export async function refuseAuditorWrite(req: CallerRequest): Promise<void> {
  if (sendsAuditorKey(req.headers.get('authorization') ?? undefined)) await principalOf(req);
}

/**
 * Does this Authorization header carry an auditor's key? Only the prefix is looked at: every other
 * write pays a string test, no query and no parse error.
 */
export function sendsAuditorKey(authorization: string | undefined): boolean {
  const m = authorization?.includes('silo_audit_') ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return !!m && kindOf(m[1]) === 'auditor_key';
}

export async function authenticate(req: CallerRequest): Promise<Principal> {
  const p = await principalOf(req);
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
  const p = await principalOf(req);
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
  if (p.kind === 'auditor') return { ownerId: p.ownerId, sandbox: p.sandbox, period: p.period };
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
 * Who manages a workspace's auditors' keys: its API keys and its console users (an enrollment
 * token acts for an application, not the workspace; auditors' keys and the admin key are 403).
 */
export function assertWorkspaceCaller(p: Principal): void {
  if (p.kind === 'user' || (p.kind === 'owner' && p.via === 'api_key')) return;
  throw new ApiError('forbidden', "Auditors' keys are managed with a workspace API key or in the console");
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
