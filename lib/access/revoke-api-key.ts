// DELETE /admin/v1/owners/{id}/keys/{key_id}: revoked keys stop working at once, as
// authentication reads revoked_at on every request.
import type { Db } from '../db/client';
import { notFound } from '../errors';

export interface RevokeApiKeyOptions {
  db: Db;
  ownerId: string;
  keyId: string;
}

export async function revokeApiKey({ db, ownerId, keyId }: RevokeApiKeyOptions): Promise<void> {
  const { count } = await db.apiKey.updateMany({ where: { id: keyId, ownerId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (!count) throw notFound('Key not found');
}
