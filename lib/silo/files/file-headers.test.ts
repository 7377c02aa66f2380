import { describe, expect, it } from 'vitest';
import { contentDisposition, fileHeaders, matchesEtag, parseRange } from './file-headers';

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
  it('refuses ranges past the end and serves the rest whole', () => {
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-1,5-6', 100)).toEqual({ kind: 'full' });
    expect(parseRange('items=0-1', 100)).toEqual({ kind: 'full' });
    expect(parseRange(null, 100)).toEqual({ kind: 'full' });
  });
});
