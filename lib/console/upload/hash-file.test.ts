import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NATIVE_HASH_BUDGET, chooseHashMethod, hashFile, toHex } from './hash-file';

describe('chooseHashMethod', () => {
  it('reads a file whole when it fits what is left of the budget', () => {
    expect(chooseHashMethod(10, 0, 100, true)).toBe('native');
    expect(chooseHashMethod(100, 0, 100, true)).toBe('native');
    expect(chooseHashMethod(60, 40, 100, true)).toBe('native');
  });

  it('streams a file above the budget, or when files already read whole leave too little of it', () => {
    expect(chooseHashMethod(101, 0, 100, true)).toBe('stream');
    expect(chooseHashMethod(61, 40, 100, true)).toBe('stream');
    expect(chooseHashMethod(NATIVE_HASH_BUDGET + 1, 0, NATIVE_HASH_BUDGET, true)).toBe('stream');
  });

  it('streams without WebCrypto (a page on plain http to another host)', () => {
    expect(chooseHashMethod(1, 0, 100, false)).toBe('stream');
  });
});

describe('hashFile on the native path', () => {
  it('gives the SHA-256 of the bytes, as hex', async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => (i * 31 + (i >>> 11)) & 255);
    const sha = await hashFile(new File([bytes], 'a.bin'), () => {}, new AbortController().signal);
    expect(sha).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(await hashFile(new File([], 'empty'), () => {}, new AbortController().signal)).toBe(createHash('sha256').digest('hex'));
  });

  it('stops with an AbortError when cancelled', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(hashFile(new File(['x'], 'x'), () => {}, ctrl.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('writes bytes as two lower-case hex digits each', () => {
    expect(toHex(new Uint8Array([0, 1, 171, 255]))).toBe('0001abff');
  });
});
