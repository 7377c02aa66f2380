// owned / ownedConcat: what a cache keeps holds no slice of Node's shared buffer pool.
import { describe, expect, it } from 'vitest';
import { owned, ownedConcat } from './owned-buffer';

describe('owned buffers', () => {
  it('copies a pooled slice into memory of its own, and keeps a buffer that owns its memory as it is', () => {
    const pooled = Buffer.from('a small string'); // under 4 KiB: a slice of the 8 KiB pool
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    const copy = owned(pooled);
    expect(copy.equals(pooled)).toBe(true);
    expect([copy.byteOffset, copy.buffer.byteLength]).toEqual([0, pooled.length]);
    pooled[0] = 0x41; // the pool's memory is reused: the copy does not change with it
    expect(copy.toString()).toBe('a small string');

    const own = Buffer.alloc(16);
    expect(owned(own)).toBe(own);
    expect(owned(own.subarray(1)).buffer).not.toBe(own.buffer);
  });

  it('concatenates into one buffer of exactly the pieces’ length', () => {
    const pieces = [Buffer.from(',{"a":1}'), Buffer.from(',{"b":2}'), new Uint8Array([0x5d])];
    const out = ownedConcat(pieces);
    expect(out.toString()).toBe(',{"a":1},{"b":2}]');
    expect([out.byteOffset, out.buffer.byteLength]).toEqual([0, out.length]);
    expect(ownedConcat([]).length).toBe(0);
  });
});
