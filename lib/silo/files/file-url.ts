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
