// Rate limits of POST /access/v1/enrollment/authorize, shaped so that a stranger's wrong secrets
// never make the right secret answer 429 (docs/api.md, Authorize):
// - every call counts against its address (bounds load and guessing from one place);
// - the secret is checked first (a cheap sha256); a wrong one counts as a failure of
//   (client id, address) and of the address, and past a failure limit answers 429, not 401;
// - a right one counts only against its application, which only the secret's holder can spend.
import { isApiError } from '../errors';
import { config } from '../config';
import { consume, limit, rateLimited } from './rate-limit';

/** Every call, before its body is read. */
export async function countAuthorizeCall(address: string): Promise<void> {
  await limit(`authorize:addr:${address}`, config().RATE_LIMIT_AUTHORIZE_PER_MINUTE);
}

/** The client credentials checked by `verify`, within the failure and per-application limits. */
export async function verifyWithinLimits<T extends { id: string }>(
  address: string,
  clientId: string,
  verify: () => Promise<T>,
): Promise<T> {
  const c = config();
  let app: T;
  try {
    app = await verify();
  } catch (err) {
    if (isApiError(err) && err.key === 'unauthorized') await countFailure(clientId, address, c.RATE_LIMIT_AUTHORIZE_FAILURES_PER_MINUTE);
    throw err;
  }
  await limit(`authorize:app:${app.id}`, c.RATE_LIMIT_AUTHORIZE_PER_MINUTE);
  return app;
}

/** `max` wrong secrets a minute per (client id, address); 3 × `max` per address over all ids. */
async function countFailure(clientId: string, address: string, max: number) {
  const pair = await consume(`authorize:fail:${clientId.slice(0, 100)}:${address}`, 60);
  const all = await consume(`authorize:fail:*:${address}`, 60);
  const over = [pair.count > max && pair, all.count > 3 * max && all].filter((u) => !!u);
  if (over.length) throw rateLimited(Math.max(...over.map((u) => u.retryAfter)));
}
