// Headers and ranges of a file fetch (docs/api.md, Fetch). Pure functions: no I/O.
// Every header value is built to be valid whatever the stored row holds (rows written before a
// validation rule existed included): a header that cannot be set would turn a fetch into a 500.
import type { ByteRange } from '../../storage/blob-store';
import { isMediaType } from '../../schemas/media-type';

const INLINE_SAFE = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'text/plain',
]);

const baseType = (mime: string) => mime.split(';')[0].trim().toLowerCase();
const isInlineSafe = (mime: string) => INLINE_SAFE.has(baseType(mime));

/** The stored mime when HTTP can carry it, else what a type we cannot name is served as. */
const servedType = (mime: string) => (isMediaType(mime) ? mime : 'application/octet-stream');

/** RFC 6266: an ASCII `filename` fallback and the exact name as UTF-8 in `filename*`. */
export function contentDisposition(name: string, inline: boolean): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  // encodeURIComponent throws on an unpaired surrogate; it has no UTF-8 form, so U+FFFD stands in.
  const wellFormed = name.replace(/\p{Cs}/gu, '\ufffd');
  const encoded = encodeURIComponent(wellFormed).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export interface FetchableFile {
  name: string;
  mime: string;
  hash: string;
  size: number;
  private: boolean;
  /** when the bytes were stored: Last-Modified (the bytes of a version never change after) */
  lastModified?: Date;
}

export function fileHeaders(f: FetchableFile, download: boolean): Record<string, string> {
  const type = servedType(f.mime);
  return {
    'Content-Type': type,
    'Content-Disposition': contentDisposition(f.name, !download && isInlineSafe(type)),
    ETag: `"${f.hash}"`,
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    // Uploaded HTML or SVG opened from this origin must never run as the console.
    'Content-Security-Policy': "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'",
    'Cache-Control': f.private ? 'private, no-cache' : 'public, max-age=0, must-revalidate',
    ...(f.lastModified ? { 'Last-Modified': f.lastModified.toUTCString() } : {}),
  };
}

/**
 * May a Range be served under this If-Range (RFC 9110 §13.1.5)? Only when it names exactly what is
 * served: our strong ETag, or our Last-Modified date as we send it. A weak ETag, another tag or
 * date, or anything else means "the whole file" (200), never a part of bytes the client may not hold.
 */
export function rangeApplies(ifRange: string | null, f: { hash: string; lastModified?: Date }): boolean {
  if (ifRange === null) return true;
  const v = ifRange.trim();
  if (v.startsWith('"')) return v === `"${f.hash}"`;
  return !!f.lastModified && !v.startsWith('W/') && v === f.lastModified.toUTCString();
}

/** Does If-None-Match name this ETag? (`*`, or a list of weak or strong tags.) */
export function matchesEtag(ifNoneMatch: string | null, hash: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === `"${hash}"`);
}

export type RangeResult = { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/** One byte range of `Range: bytes=…`; anything we do not serve as a range is served whole. */
export function parseRange(header: string | null, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return { kind: 'full' };
  }
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end } };
}
