import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCookies } from './cookies';

describe('parseCookies', () => {
  it('reads names and values, decoding percent-encoding', () => {
    expect({ ...parseCookies('a=1; next-auth.session-token=x%20y; b="q"') }).toEqual({ a: '1', 'next-auth.session-token': 'x y', b: 'q' });
  });
  it('never throws, whatever the header holds', () => {
    expect({ ...parseCookies('next-auth.session-token=%') }).toEqual({ 'next-auth.session-token': '%' });
    expect({ ...parseCookies('next-auth.session-token=%E0%A4%A') }).toEqual({ 'next-auth.session-token': '%E0%A4%A' });
    expect(Object.entries(parseCookies('novalue; =x; __proto__=1; a=1; a=2'))).toEqual([
      ['__proto__', '1'],
      ['a', '1'],
    ]);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'a=;% "\u00e9\u0000') }), (h) => void parseCookies(h)),
      { numRuns: 3000 },
    );
  });
});
