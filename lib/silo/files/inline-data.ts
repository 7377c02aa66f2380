// Inline `data`: strict base64 (line breaks allowed, as `base64` prints them), decoded size capped.
// Checked by one pass over the characters: a regular expression over megabytes of input can
// exhaust the stack (a repeated group backtracks), and inline data goes up to the 5 MiB limit.
import { ApiError } from '../../errors';

const ALPHABET = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') ALPHABET[c.charCodeAt(0)] = 1;
const EQUALS = 0x3d;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** Characters of `data` that carry base64 (whitespace skipped) and its `=` padding, or undefined when it is not base64. */
function scan(data: string): { symbols: number; padding: number } | undefined {
  let symbols = 0;
  let padding = 0;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (isSpace(c)) continue;
    if (c === EQUALS) {
      if (++padding > 2) return undefined;
    } else if (c < 128 && ALPHABET[c] === 1 && padding === 0) symbols++;
    else return undefined; // another character, or a symbol after padding
  }
  const rest = symbols % 4;
  // Padding completes the last quantum exactly; without it the last quantum may be 2 or 3 symbols.
  if (padding > 0 ? rest === 0 || rest + padding !== 4 : rest === 1) return undefined;
  return { symbols, padding };
}

export function decodeInline(data: string, maxBytes: number): Buffer {
  const shape = scan(data);
  if (!shape) throw new ApiError('bad_base64', 'data is not valid base64', { fields: { data: 'must be base64' } });
  const decodedSize = Math.floor((shape.symbols * 3) / 4);
  if (decodedSize > maxBytes) throw tooLarge(maxBytes);
  // Buffer's decoder skips whitespace itself and never throws.
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length !== decodedSize) throw new ApiError('bad_base64', 'data is not valid base64', { fields: { data: 'must be base64' } });
  return bytes;
}

const tooLarge = (maxBytes: number) =>
  new ApiError('too_large', `Inline data is limited to ${maxBytes} bytes; use a placeholder and upload the bytes to its url`);
