// The one error type of the API and the one place it becomes the contract's error body (docs/api.md, Errors).
import type { z } from 'zod';
import { ERROR_STATUS } from './schemas/error-keys';
import type { ErrorSchema } from './schemas/common';

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
