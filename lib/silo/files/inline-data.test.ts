import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors';
import { decodeInline } from './inline-data';

const keyOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as ApiError).key;
  }
};

describe('decodeInline', () => {
  it('round-trips any bytes, with or without line breaks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const b64 = Buffer.from(bytes).toString('base64');
        expect(decodeInline(b64, 1000).equals(Buffer.from(bytes))).toBe(true);
        const wrapped = b64.replace(/.{1,76}/g, '$&\n');
        expect(decodeInline(wrapped, 1000).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
  });
  it('refuses what is not base64', () => {
    expect(keyOf(() => decodeInline('not base64!', 100))).toBe('bad_base64');
    expect(keyOf(() => decodeInline('abc=d', 100))).toBe('bad_base64');
    expect(keyOf(() => decodeInline('a', 100))).toBe('bad_base64');
  });
  it('refuses decoded sizes over the limit before decoding', () => {
    expect(keyOf(() => decodeInline(Buffer.alloc(101).toString('base64'), 100))).toBe('too_large');
    expect(decodeInline(Buffer.alloc(100).toString('base64'), 100).length).toBe(100);
  });
});
