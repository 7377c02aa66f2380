// Rate limits of POST /access/v1/enrollment/authorize, shaped so that a stranger's wrong secrets
// never make the right secret answer 429 (docs/api.md, Authorize):
// - every call counts against its address (bounds load and guessing from one place);
// - the secret is checked first (a cheap sha256); a wrong one counts as a failure of
//   (client id, address) and of the address, and past a failure limit answers 429, not 401;
// - a right one counts only against its application, which only the secret's holder can spend.
// The counters are the database's, shared by every instance (lib/db/rate-windows.ts).
import type { Tx } from '../db/client';
import { countInWindow, limit, rateLimited } from '../db/rate-windows';
import { isApiError } from '../errors';

export interface AuthorizeLimits {
  /** calls a minute per address, and per application once its secret is right */
  perMinute: number;
  /** wrong secrets a minute per (client id, address) */
  failuresPerMinute: number;
}

/** Every call, before its body is read. */
export async function countAuthorizeCall(db: Tx, address: string, l: AuthorizeLimits): Promise<void> {
  await limit(db, `authorize:addr:${address}`, l.perMinute);
}

/** The client credentials checked by `verify`, within the failure and per-application limits. */
export async function verifyWithinLimits<T extends { id: string }>(
  db: Tx,
  l: AuthorizeLimits,
  caller: { address: string; clientId: string },
  verify: () => Promise<T>,
): Promise<T> {
  let app: T;
  try {
    app = await verify();
  } catch (err) {
    if (isApiError(err) && err.key === 'unauthorized') await countFailure(db, caller, l.failuresPerMinute);
    throw err;
  }
  await limit(db, `authorize:app:${app.id}`, l.perMinute);
  return app;
}

/** `max` wrong secrets a minute per (client id, address); 3 × `max` per address over all ids. */
async function countFailure(db: Tx, { clientId, address }: { address: string; clientId: string }, max: number) {
  const pair = await countInWindow(db, `authorize:fail:${clientId.slice(0, 100)}:${address}`, 60);
  const all = await countInWindow(db, `authorize:fail:*:${address}`, 60);
  const over = [pair.count > max && pair, all.count > 3 * max && all].filter((u) => !!u);
  if (over.length) throw rateLimited(Math.max(...over.map((u) => u.retryAfter)));
}
