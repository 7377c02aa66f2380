// Inline `data`: strict base64 (line breaks allowed, as `base64` prints them), decoded size capped.
import { ApiError } from '../../errors';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

export function decodeInline(data: string, maxBytes: number): Buffer {
  const compact = data.replace(/[\r\n\t ]+/g, '');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const decodedSize = Math.floor((compact.length * 3) / 4) - padding;
  if (decodedSize > maxBytes)
    throw new ApiError('too_large', `Inline data is limited to ${maxBytes} bytes; use a placeholder and upload the bytes to its url`);
  if (!BASE64.test(compact)) throw new ApiError('bad_base64', 'data is not valid base64', { fields: { data: 'must be base64' } });
  return Buffer.from(compact, 'base64');
}
