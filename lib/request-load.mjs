// The instance's request load, as work in the background reads it (the webhook engine yields to
// requests: lib/webhooks/pace.ts): the time requests have spent in flight, summed, each counted for
// at most a second (a long upload or download is not a queue). Its growth over an interval, divided
// by the interval, is the average number of requests in flight (Little's law) — about the
// connections of a client that saturates the instance, about rate × latency below that. Requests
// still in flight count as they go: requests that stall (none ends) read as load, not as calm.
// scripts/serve.mjs reports each request's start and end. The state lives on globalThis: Next
// bundles its own copy of lib/'s modules.
const KEY = Symbol.for('silo.request-load');
/** The most one request counts for, in ms. */
export const REQUEST_CAP_MS = 1000;

function state() {
  globalThis[KEY] ??= { ended: 0, open: new Set() };
  return globalThis[KEY];
}

/** A request started: hand what this returns to requestEnded. */
export function requestStarted() {
  const r = { start: performance.now() };
  state().open.add(r);
  return r;
}

/** The request `r` (from requestStarted) ended. */
export function requestEnded(r) {
  const s = state();
  if (!s.open.delete(r)) return;
  s.ended += Math.min(performance.now() - r.start, REQUEST_CAP_MS);
}

/** Requests in flight now. */
export function requestsInFlight() {
  return state().open.size;
}

/** The sum so far, in ms: growing by 8,000 a second means 8 requests in flight on average. */
export function requestMsSoFar() {
  const s = state();
  const now = performance.now();
  let ms = s.ended;
  for (const r of s.open) ms += Math.min(now - r.start, REQUEST_CAP_MS);
  return ms;
}
