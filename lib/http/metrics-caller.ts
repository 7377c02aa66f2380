// Who may read GET /utils/v1/metrics: the bearer of METRICS_TOKEN when it is set, else of the
// admin key (docs/api.md, Metrics). A scraper's credential, apart from every other one: it reads
// counts, never data, and no other key reads the metrics while it is set.
import { createHash, timingSafeEqual } from 'node:crypto';
import { config } from '../config';
import { ApiError } from '../errors';
import { bearerOf } from './auth';

/** 401 without credentials, 403 with any but the metrics' own. */
export function assertMetricsCaller(headers: Headers): void {
  const bearer = bearerOf(headers);
  if (!bearer) throw new ApiError('unauthorized', 'Send Authorization: Bearer <METRICS_TOKEN, or the admin key when it is unset>');
  const c = config();
  const expected = c.METRICS_TOKEN ?? c.ADMIN_API_KEY;
  if (!expected || !sameSecret(bearer, expected))
    throw new ApiError('forbidden', c.METRICS_TOKEN ? 'Only METRICS_TOKEN reads the metrics' : 'Only the admin key reads the metrics');
}

/** Compared as digests, in constant time: neither the length nor a prefix of the secret leaks. */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}
