// The signed `url` of a file (docs/api.md, Uploads): one capability link per file that takes PUT (and
// HEAD) while the bytes are awaited and serves GET/HEAD once they are stored. The signature
// covers the file id and a per-file nonce; deleting the file makes the link name nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UrlSigner {
  base: string;
  secret: string;
}

function signature(secret: string, id: string, nonce: string): string {
  return createHmac('sha256', secret).update(`file:${id}:${nonce}`).digest('base64url');
}

export function fileUrl(s: UrlSigner, file: { id: string; urlNonce: string }): string {
  return `${s.base}/silo/v1/files/${file.id}?sig=${signature(s.secret, file.id, file.urlNonce)}`;
}

export function verifyFileSignature(secret: string, file: { id: string; urlNonce: string }, sig: string): boolean {
  const want = Buffer.from(signature(secret, file.id, file.urlNonce));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}

// A link (POST …/files/{id}/links, docs/api.md, Links): GET/HEAD of one version until it expires,
// credentials or not. The signature covers the id, the version's link nonce (rotated to revoke
// every link of it) and the expiry, which the url carries in the clear.
function linkSignature(secret: string, id: string, nonce: string, expires: number): string {
  return createHmac('sha256', secret).update(`link:${id}:${nonce}:${expires}`).digest('base64url');
}

/** `expires` in Unix seconds. */
export function linkUrl(s: UrlSigner, file: { id: string; linkNonce: string }, expires: number): string {
  return `${s.base}/silo/v1/files/${file.id}?expires=${expires}&link=${linkSignature(s.secret, file.id, file.linkNonce, expires)}`;
}

export function verifyLinkSignature(secret: string, file: { id: string; linkNonce: string }, expires: number, sig: string): boolean {
  const want = Buffer.from(linkSignature(secret, file.id, file.linkNonce, expires));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}
