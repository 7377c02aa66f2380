// One attempt over HTTP: the record's JSON POSTed with Standard Webhooks v1 headers, to the address
// the delivery's own DNS answer gave and address-rules.ts checked; 15 s for an answer; at most the
// first 1 KiB of the answer's body kept. Redirects are not followed.
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { ipLiteral, isRefusedAddress, lookupChecked, type Resolver, type WebhookRules } from './address-rules';
import { ATTEMPT_TIMEOUT_MS } from './schedule';

export const KEPT_BODY_BYTES = 1024;

export interface SendResult {
  status: number | null;
  durationMs: number;
  body: string;
  error: string | null;
  retryAfter?: string;
}

/** webhook-signature: a `v1,<base64>` per secret, space separated (the new and, after a rotation, the previous). */
export function signatureHeader(secrets: string[], id: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
}

export interface SendOptions {
  url: string;
  id: string;
  body: string;
  secrets: string[];
  at: Date;
  rules: WebhookRules;
  resolve?: Resolver;
  timeoutMs?: number;
}

export function sendWebhook(o: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  const u = new URL(o.url);
  const literal = ipLiteral(u.hostname);
  if (literal && !o.rules.allowPrivate && isRefusedAddress(literal))
    return Promise.resolve(done({ status: null, body: '', error: `refused address ${literal}` }));
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Silo-Webhooks/1',
    'webhook-id': o.id,
    'webhook-timestamp': String(Math.floor(o.at.getTime() / 1000)),
    'webhook-signature': signatureHeader(o.secrets, o.id, o.at, o.body),
    'content-length': String(Buffer.byteLength(o.body)),
  };
  const send = u.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve) => {
    let settled = false;
    /** set once the status line came: the timer then keeps what arrived of the body */
    let answer: (() => void) | undefined;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(done(r));
    };
    const req = send(u, { method: 'POST', headers, lookup: lookupChecked(o.rules, o.resolve), agent: false }, (res) => {
      const status = res.statusCode ?? null;
      const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : undefined;
      const chunks: Buffer[] = [];
      let kept = 0;
      answer = () => finish({ status, body: Buffer.concat(chunks).subarray(0, KEPT_BODY_BYTES).toString('utf8'), error: null, retryAfter });
      res.on('data', (c: Buffer) => {
        if (kept < KEPT_BODY_BYTES) chunks.push(c);
        kept += c.length;
        if (kept >= KEPT_BODY_BYTES) answer?.();
      });
      res.on('end', () => answer?.());
      res.on('error', () => answer?.());
    });
    const timeoutMs = o.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    const timer = setTimeout(
      () => (answer ? answer() : finish({ status: null, body: '', error: `no answer within ${timeoutMs} ms` })),
      timeoutMs,
    );
    req.on('error', (err) => finish({ status: null, body: '', error: err.message }));
    req.end(o.body);
  });
}
