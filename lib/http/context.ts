// What a silo route needs, resolved once per request: database, blob store, caller, url signer.
import { actorOf, type Actor, type Principal } from '../access/principal';
import type { Scope } from '../db/scope';
import { instanceSecret } from '../access/instance';
import { config } from '../config';
import { getDb, type Db } from '../db/client';
import type { UrlSigner } from '../silo/files/file-url';
import type { BlobStore } from '../storage/blob-store';
import { filesStore } from '../storage';
import { authenticate, siloScope, type CallerRequest } from './auth';
import { ApiError } from '../errors';
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
