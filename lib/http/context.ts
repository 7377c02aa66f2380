// What a silo route needs, resolved once per request: database, blob store, caller, url signer.
import { actorOf, type Actor, type Principal } from '../access/principal';
import type { Scope } from '../db/scope';
import { instanceSecret } from '../access/instance';
import { config } from '../config';
import { getDb, type Db } from '../db/client';
import type { UrlSigner } from '../silo/files/file-url';
import type { BlobStore } from '../storage/blob-store';
import { filesStore } from '../storage';
import { ApiError } from '../errors';
import { authenticate, siloScope, type CallerRequest } from './auth';
import { requestOrigin } from './request-origin';

export interface SiloContext {
  db: Db;
  store: BlobStore;
  principal: Principal;
  /** who a version this request makes records as its author (created_by) */
  actor: Actor | null;
  scope: Scope;
  signer: UrlSigner;
}

/** The origin links are built on: PUBLIC_URL, else what the request was addressed to. */
function publicBase(headers: Headers): string {
  const configured = config().PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const { proto, host } = requestOrigin(headers);
  return `${proto}://${host}`;
}

export async function signerFor(headers: Headers): Promise<UrlSigner> {
  return { base: publicBase(headers), secret: await instanceSecret(await getDb()) };
}

export interface SiloContextOptions {
  /**
   * The route is one an auditor's key may read (entries, files, events, the export): it answers
   * within the key's period. Anywhere else an auditor's key is 403 (docs/api.md, Auditor keys).
   */
  auditor?: boolean;
}

export async function siloContext(req: CallerRequest, opts: SiloContextOptions = {}): Promise<SiloContext> {
  const principal = await authenticate(req);
  if (principal.kind === 'auditor' && !opts.auditor)
    throw new ApiError('forbidden', "An auditor's key reads entries, files, events and the export only");
  const scope = siloScope(principal);
  const db = await getDb();
  return { db, store: filesStore(db), principal, actor: actorOf(principal), scope, signer: await signerFor(req.headers) };
}

/**
 * A delete's context (docs/api.md, Retention): with `X-Silo-Bypass-Governance-Retention: true`
 * the caller overrides governance retention, which only a console administrator or the
 * ADMIN_API_KEY may (403 for anyone else); the admin key reaches every workspace's data so, and
 * only so. Compliance retention and legal holds are never overridden.
 */
export async function deleteContext(req: CallerRequest): Promise<SiloContext & { bypassGovernance: boolean }> {
  const bypassGovernance = bypassHeader(req.headers.get('x-silo-bypass-governance-retention'));
  const principal = await authenticate(req);
  if (!bypassGovernance) return { ...(await contextOf(req, principal, siloScope(principal))), bypassGovernance };
  const admin = principal.kind === 'admin_key' || (principal.kind === 'user' && principal.admin);
  if (!admin) throw new ApiError('forbidden', 'Only a console administrator or the admin key may override governance retention');
  return { ...(await contextOf(req, principal, { owners: 'all' })), bypassGovernance };
}

async function contextOf(req: CallerRequest, principal: Principal, scope: Scope): Promise<SiloContext> {
  const db = await getDb();
  return { db, store: filesStore(db), principal, actor: actorOf(principal), scope, signer: await signerFor(req.headers) };
}

/** Whether a request asks to override governance retention (its caller's right to is checked apart). */
export const bypassesGovernance = (headers: Headers) => bypassHeader(headers.get('x-silo-bypass-governance-retention'));

function bypassHeader(value: string | null): boolean {
  const v = value?.trim().toLowerCase();
  if (v === undefined || v === '' || v === 'false') return false;
  if (v === 'true') return true;
  throw new ApiError('bad_request', 'X-Silo-Bypass-Governance-Retention must be true or false');
}

export function limits() {
  const c = config();
  return {
    files: {
      maxInlineBytes: c.MAX_INLINE_BYTES,
      maxFileBytes: c.MAX_FILE_BYTES,
      uploadTtlSeconds: c.UPLOAD_URL_TTL_SECONDS,
      smallBlobBytes: c.SMALL_BLOB_MAX_BYTES,
    },
    meta: { keys: c.MAX_META_KEYS, keyLength: c.MAX_META_KEY_LENGTH, valueLength: c.MAX_META_VALUE_LENGTH },
    maxJsonBytes: c.maxJsonBytes,
    maxListLimit: c.MAX_LIST_LIMIT,
  };
}
