// What the event log keeps of an endpoint's URL (docs/api.md, Webhooks): its origin, never its
// path, query or userinfo, where receivers put their secrets (`?token=…`, `/services/T0/B0/XXXX`).
// The log is read by credentials that may not read the endpoints (an enrollment token), and a record
// can never be changed afterwards; the whole URL is kept only on the endpoint (GET /webhooks/{id}).
import type { Json } from '../events/canonical-json';
import type { EventRecord } from '../events/record';

/** `https://user:pw@hooks.example.com:8443/x?token=s` → `https://hooks.example.com:8443`. */
export function recordedUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

const WEBHOOK_RECORDS = new Set(['webhook.created', 'webhook.updated', 'webhook.deleted']);

/**
 * A record as a credential that may not read the endpoints sees it: a webhook record written before
 * URLs were recorded as their origin shows the origin too (its hash, over what was written, then no
 * longer matches what is shown: docs/api.md). Any other record is unchanged.
 */
export function withoutEndpointUrls(record: EventRecord): EventRecord {
  if (!WEBHOOK_RECORDS.has(record.type) || !isObject(record.data)) return record;
  const data = reduce(record.data);
  for (const side of ['before', 'after'] as const) {
    const part = record.data[side];
    if (isObject(part)) data[side] = reduce(part);
  }
  return JSON.stringify(data) === JSON.stringify(record.data) ? record : { ...record, data };
}

function reduce(o: { [k: string]: Json }): { [k: string]: Json } {
  return typeof o.url === 'string' ? { ...o, url: recordedUrl(o.url) } : { ...o };
}

function isObject(v: unknown): v is { [k: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
