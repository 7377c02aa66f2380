// POST /admin/v1/apps: an application with its client secret, shown once (docs/api.md, Credentials).
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { presentApp } from './present-app';
import { hashSecret, newClientId, newSecret } from './secrets';

export async function createApp(db: Db, input: { name: string; trusted: boolean }) {
  const secret = newSecret('client_secret');
  const app = await db.app.create({
    data: { id: randomUUID(), name: input.name, trusted: input.trusted, clientId: newClientId(), secretHash: hashSecret(secret) },
  });
  return { ...presentApp(app), client_secret: secret };
}
