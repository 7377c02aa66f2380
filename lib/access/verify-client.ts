// An application's client credentials, checked in the same time whether the id exists or not.
import type { Db } from '../db/client';
import type { App } from '../db/generated/client';
import { ApiError } from '../errors';
import { hashSecret, sameHash } from './secrets';

// Compared against when the client id is unknown, so both answers take the same work.
const DUMMY_HASH = hashSecret('silo-no-such-client');

/** The application whose credentials these are; 401 alike for an unknown id and a wrong secret. */
export interface VerifyClientOptions {
  db: Db;
  clientId: string;
  secret: string;
}

export async function verifyClient({ db, clientId, secret }: VerifyClientOptions): Promise<App> {
  const app = await db.app.findUnique({ where: { clientId } });
  const ok = sameHash(app?.secretHash ?? DUMMY_HASH, hashSecret(secret));
  if (!app || !ok) throw new ApiError('unauthorized', 'Unknown client_id or wrong client_secret');
  return app;
}
