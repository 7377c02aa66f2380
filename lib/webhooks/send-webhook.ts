// One attempt over HTTP: the record's JSON POSTed with Standard Webhooks v1 headers, to the address
// the delivery's own DNS answer gave and address-rules.ts checked; 15 s for an answer; at most the
// first 1 KiB of the answer's body kept. Redirects are not followed. Connections are kept open
// between attempts (a TCP and TLS handshake per record would cost more than the record).
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

/** Idle connections close after this (or the server's own `Keep-Alive: timeout` less a second, if shorter). */
const IDLE_MS = 4_000;

interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * Kept-open connections, per the rules and resolver their addresses were checked under: a socket's
 * address was checked once, when it connected (lookupChecked), and a reused socket goes to that
 * address, never to a later DNS answer. Sockets of other rules (tests, another configuration)
 * are never shared.
 */
const pools = new WeakMap<WebhookRules, Map<Resolver | undefined, Agents>>();

function agentsFor(rules: WebhookRules, resolve: Resolver | undefined): Agents {
  let byResolver = pools.get(rules);
  if (!byResolver) {
    byResolver = new Map();
    pools.set(rules, byResolver);
  }
  let agents = byResolver.get(resolve);
  if (!agents) {
    const o = { keepAlive: true, timeout: IDLE_MS, maxSockets: 64, scheduling: 'lifo' as const, lookup: lookupChecked(rules, resolve) };
    agents = { http: new http.Agent(o), https: new https.Agent(o) };
    byResolver.set(resolve, agents);
  }
  return agents;
}

/**
 * An attempt; sent again at once, on a new connection, when a kept-open one turned out closed by the
 * receiver. Its duration is the attempt's whole, both sends.
 */
export async function sendWebhook(o: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const first = await sendOnce(o);
  if (!first.staleSocket) return first;
  const { staleSocket: _, ...second } = await sendOnce(o);
  return { ...second, durationMs: Math.round(performance.now() - started) };
}

function sendOnce(o: SendOptions): Promise<SendResult & { staleSocket?: true }> {
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
  const agents = agentsFor(o.rules, o.resolve);
  return new Promise((resolve) => {
    let settled = false;
    /** set once the status line came: the timer then keeps what arrived of the body */
    let answer: (() => void) | undefined;
    /** `keep`: the answer was read to its end, and its connection goes back to the pool */
    const finish = (r: Omit<SendResult, 'durationMs'> & { staleSocket?: true }, keep = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!keep) req.destroy();
      resolve(done(r));
    };
    const agent = u.protocol === 'https:' ? agents.https : agents.http;
    const req = send(u, { method: 'POST', headers, agent }, (res) => {
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
      res.on('end', () => {
        if (kept < KEPT_BODY_BYTES) finish({ status, body: Buffer.concat(chunks).toString('utf8'), error: null, retryAfter }, true);
        else answer?.();
      });
      res.on('error', () => answer?.());
    });
    const timeoutMs = o.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    const timer = setTimeout(
      () => (answer ? answer() : finish({ status: null, body: '', error: `no answer within ${timeoutMs} ms` })),
      timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A kept-open connection the receiver had closed: nothing was received, send again on a new one.
      const stale = req.reusedSocket && !answer && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
      finish({ status: null, body: '', error: err.message, ...(stale ? { staleSocket: true as const } : {}) });
    });
    req.end(o.body);
  });
}
