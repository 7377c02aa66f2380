// How fast the engine sends: flat out while the instance's requests leave room, at a trickle while
// they do not. Webhooks are the background: a delivery may wait, a request's client is waiting. An
// outgoing attempt costs the server about what an incoming request does (an HTTP exchange on the
// one main thread, statements on the database), and a new file makes two records — with three
// endpoints, six attempts: sent as fast as records are made under a saturating load, they took
// most of the instance from its requests (measured: new files at 0.03–0.11× ping). So from the moment
// BUSY_IN_FLIGHT requests are in flight at once, and while they stay so on average (a client
// saturating the instance; rate × latency below that) until under CALM_IN_FLIGHT, the engine makes
// BUSY_RATE attempts a second, in rounds every BUSY_ROUND_MS; the
// records wait in the event log (scanned a few at a time), and go out flat out once the load eases,
// or from another instance that has room (a lease per delivery: any instance sends any of them).
import { requestMsSoFar, requestsInFlight } from '../request-load.mjs';

/** Requests in flight (at a moment, or on average over WINDOW_MS) from which the instance counts as busy. */
export const BUSY_IN_FLIGHT = 8;
/** Below this, a busy instance is not busy any more (no flapping at the edge). */
export const CALM_IN_FLIGHT = 4;
/** Attempts a second a busy instance still makes: a few percent of one core. */
export const BUSY_RATE = 50;
/** A busy instance's rounds, this far apart: its attempts go out a few at a time, not in bursts. */
export const BUSY_ROUND_MS = 200;
/** Records per endpoint a busy instance's round turns into deliveries (SCAN_BATCH when not busy). */
export const BUSY_SCAN = 10;
/** The window the load is judged over: at a few hundred requests a second, tens of them. */
export const WINDOW_MS = 100;

export interface Pace {
  /** Whether the instance's requests take it: busy at once, calm again only by a whole window's average. */
  busy(): boolean;
  /** How many of `wanted` attempts may start now (all of them unless busy). */
  take(wanted: number): number;
}

export interface PaceOptions {
  /** The requests' time in flight so far, in ms (request-load.mjs); tests pass their own. */
  load?: () => number;
  /** The requests in flight now (request-load.mjs). */
  inFlight?: () => number;
  clock?: () => number;
}

export function pace(o: PaceOptions = {}): Pace {
  const load = o.load ?? requestMsSoFar;
  const inFlightNow = o.inFlight ?? (o.load ? () => 0 : requestsInFlight);
  const clock = o.clock ?? (() => performance.now());
  let at = clock();
  let loadAt = load();
  let busy = false;
  let tokens = 0;
  let refilledAt = at;
  const read = () => {
    const t = clock();
    // A load arriving turns it busy at once (a saturating client's connections are all in flight
    // from its first moment); only the window's average turns it calm again.
    if (!busy && inFlightNow() >= BUSY_IN_FLIGHT) {
      busy = true;
      tokens = 0;
      refilledAt = t;
      at = t;
      loadAt = load();
      return busy;
    }
    if (t - at < WINDOW_MS) return busy;
    const inFlight = (load() - loadAt) / (t - at);
    at = t;
    loadAt = load();
    const was = busy;
    busy = busy ? inFlight >= CALM_IN_FLIGHT : inFlight >= BUSY_IN_FLIGHT;
    if (busy && !was) {
      tokens = 0;
      refilledAt = t;
    }
    return busy;
  };
  return {
    busy: read,
    take(wanted) {
      if (!read()) return wanted;
      const t = clock();
      // at most a round's worth saved up: a busy instance never sends a burst
      tokens = Math.min(tokens + ((t - refilledAt) * BUSY_RATE) / 1000, (BUSY_RATE * BUSY_ROUND_MS) / 1000);
      refilledAt = t;
      const n = Math.max(0, Math.min(wanted, Math.floor(tokens)));
      tokens -= n;
      return n;
    },
  };
}
