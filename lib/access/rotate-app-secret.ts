// POST /admin/v1/apps/{id}/secret: a new secret; the old one stops working at once.
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { presentApp } from './present-app';
import { hashSecret, newSecret } from './secrets';

export async function rotateAppSecret(db: Db, id: string) {
  const secret = newSecret('client_secret');
  const app = await db.app.update({ where: { id }, data: { secretHash: hashSecret(secret) } }).catch(() => {
    throw notFound('Application not found');
  });
  return { ...presentApp(app), client_secret: secret };
}
