// Links to one version (docs/api.md, Links): made with an expiry, opened without credentials,
// revoked together by rotating the version's link nonce.
import type { Db } from '../../db/client';
import type { File } from '../../db/generated/client';
import { ApiError } from '../../errors';
import { appendEvent } from '../../events/append-event';
import { type EventActor, eventActorFor } from '../../events/catalogue';
import { nonce } from './create-file';
import { linkUrl, verifyLinkSignature, type UrlSigner } from './file-url';
import { fileNotFound } from './find-file';
import { withSlotLocked } from './lock-slot';

export interface FileLink {
  url: string;
  expires_at: string;
}

/** A link to `file` that works for `expiresIn` seconds from `now` (rounded up to a whole second). */
export function createLink(signer: UrlSigner, file: File, expiresIn: number, now = Date.now()): FileLink {
  const expires = Math.ceil(now / 1000) + expiresIn;
  return { url: linkUrl(signer, file, expires), expires_at: new Date(expires * 1000).toISOString() };
}

/** A link made and recorded (link.created): the record is written before the link is handed out. */
export async function makeLink(db: Db, signer: UrlSigner, file: File, expiresIn: number, actor: EventActor | null): Promise<FileLink> {
  const link = createLink(signer, file, expiresIn);
  await appendEvent(db, {
    ownerId: null,
    type: 'link.created',
    actor: eventActorFor(actor),
    entryId: file.entryId,
    fileId: file.id,
    version: file.version,
    data: { expires_at: link.expires_at },
  });
  return link;
}

/** Every link made so far of this version stops working (link.revoked). */
export async function revokeLinks(db: Db, file: File, actor: EventActor | null): Promise<void> {
  await withSlotLocked(db, file, async (tx) => {
    await tx.file.update({ where: { id: file.id }, data: { linkNonce: nonce() } });
    await appendEvent(tx, {
      ownerId: null,
      type: 'link.revoked',
      actor: eventActorFor(actor),
      entryId: file.entryId,
      fileId: file.id,
      version: file.version,
      data: {},
    });
  });
}

export interface FindFileByLinkOptions {
  db: Db;
  secret: string;
  id: string;
  expires: string | undefined;
  sig: string;
  now?: number;
}

/**
 * The version a link names. A deleted version is gone (404); a link that does not verify (altered,
 * or revoked by a rotation) is refused without saying which (403 forbidden); a genuine link past
 * its expiry answers 403 link_expired.
 */
export async function findFileByLink({ db, secret, id, expires, sig, now = Date.now() }: FindFileByLinkOptions): Promise<File> {
  const file = await db.file.findUnique({ where: { id } });
  if (!file) throw fileNotFound();
  const at = expires !== undefined && /^\d{1,12}$/.test(expires) ? Number(expires) : Number.NaN;
  if (!Number.isFinite(at) || !verifyLinkSignature(secret, file, at, sig))
    throw new ApiError('forbidden', 'This link is not valid: it was altered or revoked');
  if (at * 1000 <= now) throw new ApiError('link_expired', `This link expired at ${new Date(at * 1000).toISOString()}`);
  return file;
}
