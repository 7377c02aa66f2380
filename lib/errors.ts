// The one error type of the API and the one place it becomes the contract's error body (docs/api.md, Errors).
import type { z } from 'zod';
import type { ErrorSchema } from './schemas/common';

const ERROR_STATUS = {
  bad_request: 400,
  bad_json: 400,
  bad_base64: 400,
  bad_range: 400,
  unauthorized: 401,
  token_expired: 401,
  forbidden: 403,
  enrollment_disabled: 403,
  upload_url_expired: 403,
  link_expired: 403,
  not_found: 404,
  unknown_version: 404,
  method_not_allowed: 405,
  upload_idle: 408,
  conflict: 409,
  offset_mismatch: 409,
  not_stored: 409,
  upload_in_progress: 409,
  too_large: 413,
  range_not_satisfiable: 416,
  unsupported_media_type: 415,
  validation: 422,
  checksum_mismatch: 422,
  size_mismatch: 422,
  rate_limited: 429,
  internal: 500,
  not_ready: 503,
  storage_unavailable: 503,
  insufficient_storage: 507,
} as const;

export type ErrorKey = keyof typeof ERROR_STATUS;

export type ErrorBody = z.infer<typeof ErrorSchema>;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly key: ErrorKey;
  readonly fields?: Record<string, string>;
  readonly headers?: Record<string, string>;

  constructor(key: ErrorKey, message: string, opts: { fields?: Record<string, string>; headers?: Record<string, string> } = {}) {
    super(message);
    this.key = key;
    this.status = ERROR_STATUS[key];
    this.fields = opts.fields;
    this.headers = opts.headers;
  }

  body(): ErrorBody {
    const body: ErrorBody = { code: this.status, key: this.key, message: this.message };
    if (this.fields) body.fields = this.fields;
    return body;
  }
}

/** By name, not instanceof: errors may come from another bundle's copy of this class. */
export const isApiError = (err: unknown): err is ApiError =>
  (err as Error)?.name === 'ApiError' && typeof (err as ApiError).status === 'number' && typeof (err as ApiError).body === 'function';

export const notFound = (what = 'Not found') => new ApiError('not_found', what);
