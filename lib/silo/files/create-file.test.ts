// The one decision of a new file's path (decideCreation): inline bytes up to smallBlobBytes are
// kept in the database, one byte more goes to the blob store, no data makes a placeholder.
import { describe, expect, it } from 'vitest';
import { SMALL_BLOB_LIMITS, TEST_FILE_LIMITS, parseFileInput as parse, sha256 } from '../../testing/files';
import { decideCreation } from './create-file';

const LIMIT = SMALL_BLOB_LIMITS.smallBlobBytes;
const inline = (size: number) => parse({ name: 'a.bin', data: Buffer.alloc(size, 7).toString('base64') });

describe('decideCreation', () => {
  it('keeps inline bytes in the database up to exactly smallBlobBytes, one more in the store', () => {
    expect(decideCreation(inline(LIMIT), SMALL_BLOB_LIMITS)).toMatchObject({ path: 'inline-small', content: { size: LIMIT } });
    expect(decideCreation(inline(LIMIT + 1), SMALL_BLOB_LIMITS)).toMatchObject({ path: 'inline-large', content: { size: LIMIT + 1 } });
    expect(decideCreation(inline(0), SMALL_BLOB_LIMITS).path).toBe('inline-small');
  });

  it('sends every inline file to the store when smallBlobBytes is 0', () => {
    expect(decideCreation(inline(1), TEST_FILE_LIMITS).path).toBe('inline-large');
    expect(decideCreation(inline(0), TEST_FILE_LIMITS).path).toBe('inline-small');
  });

  it('makes a placeholder without data, whatever its size', () => {
    const bytes = Buffer.from('later');
    for (const size of [0, 5, LIMIT, LIMIT + 1]) {
      const input = parse({ name: 'p.bin', mime: 'application/pdf', size, sha256: sha256(bytes) });
      expect(decideCreation(input, SMALL_BLOB_LIMITS)).toEqual({
        path: 'placeholder',
        content: { hash: sha256(bytes), size, mime: 'application/pdf' },
      });
    }
  });

  it('refuses content that contradicts the request before any path is taken', () => {
    const data = Buffer.from('abc').toString('base64');
    expect(() => decideCreation(parse({ name: 'a', data, size: 4 }), SMALL_BLOB_LIMITS)).toThrow(
      expect.objectContaining({ key: 'size_mismatch' }),
    );
    expect(() => decideCreation(parse({ name: 'a', data, sha256: sha256('abd') }), SMALL_BLOB_LIMITS)).toThrow(
      expect.objectContaining({ key: 'checksum_mismatch' }),
    );
    const big = parse({ name: 'a', mime: 'application/pdf', size: TEST_FILE_LIMITS.maxFileBytes + 1, sha256: sha256('x') });
    expect(() => decideCreation(big, SMALL_BLOB_LIMITS)).toThrow(expect.objectContaining({ key: 'too_large' }));
  });
});
