import { validateHeaderValue } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentDisposition, fileHeaders, matchesEtag, parseRange, rangeApplies } from './file-headers';

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name (RFC 6266)', () => {
    expect(contentDisposition('Factura ñ 2026.pdf', true)).toBe(
      `inline; filename="Factura _ 2026.pdf"; filename*=UTF-8''Factura%20%C3%B1%202026.pdf`,
    );
  });
  it('cannot be broken out of by quotes or backslashes', () => {
    const h = contentDisposition('a"b\\c\r\n.txt', false);
    expect(h.startsWith('attachment; filename="a_b_c__.txt";')).toBe(true);
  });
});

describe('fileHeaders', () => {
  const f = { name: 'x', hash: 'ab'.repeat(32), size: 3, private: false };
  it('is inline only for types safe to render', () => {
    expect(fileHeaders({ ...f, mime: 'application/pdf' }, false)['Content-Disposition']).toMatch(/^inline/);
    expect(fileHeaders({ ...f, mime: 'image/png' }, false)['Content-Disposition']).toMatch(/^inline/);
    expect(fileHeaders({ ...f, mime: 'text/html' }, false)['Content-Disposition']).toMatch(/^attachment/);
    expect(fileHeaders({ ...f, mime: 'image/svg+xml' }, false)['Content-Disposition']).toMatch(/^attachment/);
    expect(fileHeaders({ ...f, mime: 'application/pdf' }, true)['Content-Disposition']).toMatch(/^attachment/);
  });
  it('always sandboxes and forbids sniffing', () => {
    const h = fileHeaders({ ...f, mime: 'text/html' }, false);
    expect(h['Content-Security-Policy']).toMatch(/(^|; )sandbox(;|$)/);
    expect(h['X-Content-Type-Options']).toBe('nosniff');
    expect(h.ETag).toBe(`"${f.hash}"`);
  });
});

describe('fileHeaders never holds a value HTTP cannot carry', () => {
  const base = { hash: 'ab'.repeat(32), size: 3, private: false };
  const settable = (h: Record<string, string>) => {
    for (const [k, v] of Object.entries(h)) validateHeaderValue(k, v);
  };
  it('whatever name and mime a row holds (rows from before a rule existed too)', () => {
    // \u0100 in a parameter made every GET of that file a 500; so did a lone surrogate in a name.
    for (const [name, mime] of [
      ['a.txt', 'text/plain; x=\u0100'],
      ['a\ud800.txt', 'text/plain'],
      ['x', 'text/plain\r\nX-Evil: 1'],
      ['x', 'a/b; q="\u00e9"'],
    ]) {
      const h = fileHeaders({ ...base, name, mime }, false);
      expect(() => settable(h)).not.toThrow();
      expect(h['Content-Type']).toBe(mime === 'text/plain' ? mime : 'application/octet-stream');
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), fc.boolean(), (name, mime, download) => {
        expect(() => settable(fileHeaders({ ...base, name, mime }, download))).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
  it('sends a valid media type as it was stored', () => {
    for (const mime of ['application/pdf', 'text/plain; charset=utf-8', 'text/plain;charset="a \\"b"', 'application/vnd.ms-excel'])
      expect(fileHeaders({ ...base, name: 'x', mime }, false)['Content-Type']).toBe(mime);
  });
});

describe('matchesEtag', () => {
  const hash = 'cd'.repeat(32);
  it('matches strong, weak, listed and *', () => {
    expect(matchesEtag(`"${hash}"`, hash)).toBe(true);
    expect(matchesEtag(`W/"${hash}"`, hash)).toBe(true);
    expect(matchesEtag(`"x", "${hash}"`, hash)).toBe(true);
    expect(matchesEtag('*', hash)).toBe(true);
    expect(matchesEtag('"other"', hash)).toBe(false);
    expect(matchesEtag(null, hash)).toBe(false);
  });
});

describe('parseRange', () => {
  it('reads the three forms of one range', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ kind: 'partial', range: { start: 0, end: 9 } });
    expect(parseRange('bytes=90-', 100)).toEqual({ kind: 'partial', range: { start: 90, end: 99 } });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'partial', range: { start: 90, end: 99 } });
    expect(parseRange('bytes=95-200', 100)).toEqual({ kind: 'partial', range: { start: 95, end: 99 } });
  });
  it('gives the whole file for a suffix longer than it (RFC 9110 §14.1.3), as a range', () => {
    expect(parseRange('bytes=-200', 100)).toEqual({ kind: 'partial', range: { start: 0, end: 99 } });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });
  it('answers a multi-range request whole, even when only one of its ranges is satisfiable', () => {
    expect(parseRange('bytes=0-1,200-300', 100)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=200-300,400-500', 100)).toEqual({ kind: 'full' });
  });
  it('ignores an invalid range (last before first) rather than refusing it', () => {
    expect(parseRange('bytes=5-1', 100)).toEqual({ kind: 'full' });
  });
  it('refuses ranges past the end and serves the rest whole', () => {
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-1,5-6', 100)).toEqual({ kind: 'full' });
    expect(parseRange('items=0-1', 100)).toEqual({ kind: 'full' });
    expect(parseRange(null, 100)).toEqual({ kind: 'full' });
  });
});

describe('rangeApplies (If-Range, RFC 9110 §13.1.5)', () => {
  const hash = 'cd'.repeat(32);
  const lastModified = new Date('2026-11-22T12:00:00.123Z');
  const f = { hash, lastModified };
  it('lets a Range apply without If-Range, or under our strong ETag or our exact Last-Modified', () => {
    expect(rangeApplies(null, f)).toBe(true);
    expect(rangeApplies(`"${hash}"`, f)).toBe(true);
    expect(rangeApplies(' Sun, 22 Nov 2026 12:00:00 GMT ', f)).toBe(true);
    expect(fileHeaders({ name: 'a', mime: 'text/plain', size: 1, private: false, ...f }, false)['Last-Modified']).toBe(
      'Sun, 22 Nov 2026 12:00:00 GMT',
    );
  });
  it('serves the whole file for a weak ETag, another tag or date, or anything else', () => {
    for (const v of [
      `W/"${hash}"`,
      '"other"',
      `"${hash}", "x"`,
      '*',
      'Sun, 22 Nov 2026 12:00:01 GMT',
      'Sun, 22 Nov 2026 11:59:59 GMT',
      'Sunday, 22-Nov-26 12:00:00 GMT',
      'garbage',
      '',
    ])
      expect(rangeApplies(v, f), v).toBe(false);
    expect(rangeApplies('Sun, 22 Nov 2026 12:00:00 GMT', { hash }), 'no Last-Modified').toBe(false);
  });
});
