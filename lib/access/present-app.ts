// An application as the API shows it: never its secret's hash.
import type { App } from '../db/generated/client';
import type { AppRecord } from '../schemas/access';

export const presentApp = (a: App): AppRecord => ({
  id: a.id,
  name: a.name,
  client_id: a.clientId,
  trusted: a.trusted,
  created_at: a.createdAt.toISOString(),
});
