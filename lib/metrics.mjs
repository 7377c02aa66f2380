// The process's Prometheus metrics, rendered by GET /utils/v1/metrics (docs/operations.md,
// Metrics). scripts/serve.mjs counts every request, the domain counts the versions it stores, the
// route reads the database's gauges at scrape time. One registry per process, kept on globalThis
// as request-load.mjs keeps its state: Next bundles its own copy of lib/'s modules, and the
// server's counters and the app's route must render from the same one.
import client from 'prom-client';

const KEY = Symbol.for('silo.metrics');
/** The `route` of a request no route of the table serves (console pages, static files, unknown paths). */
export const UNMATCHED = 'unmatched';
/** The `method` of a request with a method no route serves: a label value is never the caller's choice. */
export const OTHER_METHOD = 'OTHER';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
// Small requests answer in a few ms; uploads and exports may take minutes.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

function create() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];
  // Read from the database at scrape time: a registry of their own, left out when the read fails.
  const database = new client.Registry();
  const fromDb = (name, help) => new client.Gauge({ name, help, registers: [database] });
  return {
    registry,
    database,
    requests: new client.Counter({
      name: 'silo_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    duration: new client.Histogram({
      name: 'silo_http_request_duration_seconds',
      help: 'Time from a request to the end of its answer, by method and route pattern',
      labelNames: ['method', 'route'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    storedBytes: new client.Counter({ name: 'silo_stored_bytes_total', help: 'Bytes of the versions this instance stored', registers }),
    storedVersions: new client.Counter({ name: 'silo_stored_versions_total', help: 'Versions this instance stored', registers }),
    poolWaiting: new client.Gauge({
      name: 'silo_db_pool_waiting',
      help: 'Statements and transactions waiting for a database connection of this instance',
      registers,
    }),
    webhookPending: fromDb('silo_webhook_deliveries_pending', 'Webhook deliveries not yet succeeded or failed, all endpoints'),
    webhookOldest: fromDb('silo_webhook_oldest_pending_seconds', 'Age of the oldest pending webhook delivery (0: none)'),
    sinceCheckpoint: fromDb('silo_event_records_since_checkpoint', 'Event records not yet under a signed checkpoint, all chains'),
  };
}

function metrics() {
  globalThis[KEY] ??= create();
  return globalThis[KEY];
}

/** A request ended: `route` is its route's pattern, or UNMATCHED; never a raw path. */
export function requestMeasured(method, route, status, seconds) {
  const m = metrics();
  const label = METHODS.has(method) ? method : OTHER_METHOD;
  m.requests.inc({ method: label, route, status });
  m.duration.observe({ method: label, route }, seconds);
}

/** A version became stored (its change committed), `bytes` long. */
export function versionStored(bytes) {
  const m = metrics();
  m.storedVersions.inc();
  m.storedBytes.inc(Number(bytes));
}

/** The content type of metricsText's answer: Prometheus' text format 0.0.4. */
export const METRICS_CONTENT_TYPE = client.Registry.PROMETHEUS_CONTENT_TYPE;

/**
 * The exposition text, with the gauges set from `readings`. `database` absent (its read failed or
 * took too long): those gauges are left out, the rest still answers.
 */
export async function metricsText(readings) {
  const m = metrics();
  m.poolWaiting.set(readings.poolWaiting);
  const own = await m.registry.metrics();
  const db = readings.database;
  if (!db) return own;
  m.webhookPending.set(db.webhookPending);
  m.webhookOldest.set(db.webhookOldestSeconds);
  m.sinceCheckpoint.set(db.recordsSinceCheckpoint);
  return `${own}\n${await m.database.metrics()}`;
}
