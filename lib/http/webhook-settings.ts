// What the webhook routes and the delivery engine share: the address rules from the configuration
// and the box that keeps signing secrets, keyed by the session secret (lib/webhooks/secret-box.ts).
import { config } from '../config';
import { ApiError } from '../errors';
import type { WebhookSettings } from '../webhooks/create-webhook';
import { secretBox } from '../webhooks/secret-box';
import { siloContext } from './context';
import type { CallerRequest } from './auth';
import type { Principal } from '../access/principal';
import { sessionSecret } from './session-secret';

const g = globalThis as unknown as { __siloWebhookSettings?: Promise<WebhookSettings> };

export function webhookSettings(): Promise<WebhookSettings> {
  if (!g.__siloWebhookSettings) {
    g.__siloWebhookSettings = sessionSecret().then((secret) => {
      const c = config();
      return { rules: { allowHttp: c.WEBHOOK_ALLOW_HTTP, allowPrivate: c.WEBHOOK_ALLOW_PRIVATE }, box: secretBox(secret) };
    });
    g.__siloWebhookSettings.catch(() => (g.__siloWebhookSettings = undefined));
  }
  return g.__siloWebhookSettings;
}

/**
 * Whether `p` is not an application's enrollment token, which may neither manage the endpoints nor
 * read their URLs in the event log (an auditor's key, kept out of the routes by siloContext, reads
 * the records as written: its checks need every byte a hash covers).
 */
export function mayReadWebhooks(p: Principal): boolean {
  return !(p.kind === 'owner' && p.via === 'enrollment');
}

/** The caller of a webhook route: a workspace's API key or a console user; an application's token may not. */
export async function webhookContext(req: CallerRequest) {
  const c = await siloContext(req);
  if (!mayReadWebhooks(c.principal)) throw new ApiError('forbidden', "Webhooks are managed with the workspace's API key or in the console");
  return { ...c, settings: await webhookSettings() };
}
