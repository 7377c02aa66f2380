// Content-Range of a resumed upload: `bytes N-M/size` or `bytes N-*/size` (docs/api.md, Uploads).
import { ApiError } from '../../errors';

export interface UploadRange {
  start: number;
  /** inclusive; undefined for `N-*` (to the end) */
  end?: number;
}

export function parseUploadRange(header: string | null, size: number): UploadRange | undefined {
  if (header === null) return undefined;
  const m = /^bytes (\d+)-(\d+|\*)\/(\d+|\*)$/.exec(header.trim());
  if (!m) throw new ApiError('bad_range', 'Content-Range must look like "bytes N-M/size" or "bytes N-*/size"');
  const start = Number(m[1]);
  const end = m[2] === '*' ? undefined : Number(m[2]);
  if (m[3] !== '*' && Number(m[3]) !== size)
    throw new ApiError('size_mismatch', `Content-Range says the file has ${m[3]} bytes; the placeholder says ${size}`);
  if (end !== undefined && (end < start || end >= size))
    throw new ApiError('bad_range', `Content-Range ${header} does not fit a file of ${size} bytes`);
  return { start, end };
}
