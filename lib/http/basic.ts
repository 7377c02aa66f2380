// HTTP Basic client credentials (docs/api.md, Authorize: accepted for authorize as well as the JSON body).
import { ApiError } from '../errors';
import { storable } from '../schemas/common';

export function basicCredentials(headers: Headers): { id: string; secret: string } | undefined {
  const auth = headers.get('authorization');
  if (!auth || !/^Basic\s/i.test(auth)) return undefined;
  const decoded = Buffer.from(auth.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  // The id is looked up in a text column, which cannot hold NUL.
  if (i < 0 || !storable(decoded)) throw new ApiError('unauthorized', 'Malformed HTTP Basic credentials');
  return { id: decoded.slice(0, i), secret: decoded.slice(i + 1) };
}
