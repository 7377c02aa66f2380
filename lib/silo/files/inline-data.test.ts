import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../errors';
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

describe('decodeInline at the limit', () => {
  const MiB = 1024 * 1024;
  it('decodes 3.5 MiB to 5 MiB without exhausting the stack (a backtracking check did)', () => {
    for (const size of [3.5 * MiB, 5 * MiB]) {
      const bytes = Buffer.alloc(size, 0xa5);
      expect(decodeInline(bytes.toString('base64'), 5 * MiB).equals(bytes)).toBe(true);
      expect(decodeInline(bytes.toString('base64').replace(/.{76}/g, '$&\r\n'), 5 * MiB).length).toBe(size);
    }
    expect(keyOf(() => decodeInline(Buffer.alloc(5 * MiB + 1).toString('base64'), 5 * MiB))).toBe('too_large');
    expect(keyOf(() => decodeInline(`${'A'.repeat(4 * MiB)}!`, 5 * MiB))).toBe('bad_base64');
  });
  it('accepts exactly what RFC 4648 base64 (padded or not, whitespace between) is', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'AB+/=\n x-_é'), maxLength: 12 }), (s) => {
        const compact = s.replace(/[\r\n\t ]/g, '');
        const valid = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/.test(compact);
        expect(keyOf(() => decodeInline(s, 100)) === undefined).toBe(valid);
      }),
      { numRuns: 2000 },
    );
  });
});
