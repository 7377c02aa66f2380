import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../errors';
import { parseUploadRange } from './content-range';

describe('parseUploadRange', () => {
  it('reads bytes N-M/size and bytes N-*/size', () => {
    expect(parseUploadRange('bytes 10-99/100', 100)).toEqual({ start: 10, end: 99 });
    expect(parseUploadRange('bytes 10-*/100', 100)).toEqual({ start: 10, end: undefined });
    expect(parseUploadRange(null, 100)).toBeUndefined();
  });
  it('refuses a size other than the placeholder and ranges that do not fit', () => {
    const key = (h: string) => {
      try {
        parseUploadRange(h, 100);
      } catch (e) {
        return (e as ApiError).key;
      }
    };
    expect(key('bytes 0-99/101')).toBe('size_mismatch');
    expect(key('bytes 50-10/100')).toBe('bad_range');
    expect(key('bytes 0-100/100')).toBe('bad_range');
    expect(key('bytes=0-1/100')).toBe('bad_range');
  });
});
