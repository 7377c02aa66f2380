import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMediaType } from './media-type';

describe('isMediaType (RFC 9110, ASCII only)', () => {
  it('accepts types with token and quoted-string parameters', () => {
    for (const m of [
      'application/pdf',
      'text/plain; charset=utf-8',
      'text/plain;charset=UTF-8',
      'multipart/form-data; boundary="a b;c"',
      'a/b; x="\\"q\\""',
      'a/b ;',
      'application/vnd.api+json',
      'x/y; a=1 ; b=2',
    ])
      expect(isMediaType(m), m).toBe(true);
  });
  it('refuses what a Content-Type header cannot carry or HTTP does not define', () => {
    for (const m of [
      'text/plain; x=\u0100',
      'text/plain; x="\u00e9"',
      'text/plain; x=é',
      'text',
      'text/',
      '/plain',
      'text/plain; x',
      'text/plain; x=',
      'text/pl ain',
      'text/plain\r\nX: y',
      'text/plain; x="unterminated',
      'a/b; x="\u0000"',
      `${'x'.repeat(250)}/abcdef`,
    ])
      expect(isMediaType(m), JSON.stringify(m)).toBe(false);
  });
  it('answers long hostile input in linear time', () => {
    const inputs = [`a/b${'; '.repeat(100_000)}!`, `a/b${';a=b'.repeat(100_000)}"`, `a/${'b'.repeat(1_000_000)}`];
    for (const s of inputs) expect(isMediaType(s)).toBe(false);
    // the length cap applies first, but the grammar must not blow up on its own either
    const re =
      /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*;(?:[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+=(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+|"(?:[\t !#-[\]-~]|\\[\t -~])*"))?)*[ \t]*$/;
    const started = process.hrtime.bigint();
    expect(re.test(`a/b${'; ;  ;'.repeat(20_000)}\u0001`)).toBe(false);
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(10);
  });
  it('every accepted value is a valid header value', async () => {
    const { validateHeaderValue } = await import('node:http');
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'ab/;= "\\\t\u0100é\r\n'), maxLength: 20 }), (s) => {
        if (isMediaType(s)) expect(() => validateHeaderValue('Content-Type', s)).not.toThrow();
      }),
      { numRuns: 3000 },
    );
  });
});
