// SizedLru: a byte budget, least recently used out first, a get counting as a use.
import { describe, expect, it } from 'vitest';
import { SizedLru } from './sized-lru';

describe('SizedLru', () => {
  it('drops the least recently used once the sizes pass the budget; a get is a use, a peek is not', () => {
    const lru = new SizedLru<string>(10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    expect(lru.get('a')).toBe('A'); // a is now the most recent
    lru.set('c', 'C', 4); // 12 > 10: b goes
    expect([lru.peek('a'), lru.peek('b'), lru.peek('c')]).toEqual(['A', undefined, 'C']);
    lru.peek('a'); // not a use: a is still the oldest
    lru.set('d', 'D', 4);
    expect([lru.peek('a'), lru.peek('c'), lru.peek('d')]).toEqual([undefined, 'C', 'D']);
  });

  it('replaces a key with its new size, deletes, and keeps nothing larger than the budget', () => {
    const lru = new SizedLru<string>(10);
    lru.set('a', 'A', 9);
    lru.set('a', 'A2', 2);
    lru.set('b', 'B', 8); // 2 + 8 = 10: both stay
    expect([lru.peek('a'), lru.peek('b')]).toEqual(['A2', 'B']);
    lru.delete('b');
    lru.set('c', 'C', 8);
    expect([lru.peek('a'), lru.peek('c')]).toEqual(['A2', 'C']);
    lru.set('huge', 'H', 11);
    expect([lru.peek('huge'), lru.peek('a'), lru.peek('c')]).toEqual([undefined, 'A2', 'C']);
  });

  it('caps the count too, the least recently used out first', () => {
    const lru = new SizedLru<string>(1_000, 2);
    lru.set('a', 'A', 0);
    lru.set('b', 'B', 0);
    lru.get('a');
    lru.set('c', 'C', 0);
    expect([lru.peek('a'), lru.peek('b'), lru.peek('c'), lru.size]).toEqual(['A', undefined, 'C', 2]);
  });
});
