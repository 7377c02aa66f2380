/** The most one request counts for, in ms. */
export const REQUEST_CAP_MS: number;
export interface OpenRequest {
  start: number;
}
/** A request started: hand what this returns to requestEnded (request-load.mjs). */
export function requestStarted(): OpenRequest;
/** The request `r` (from requestStarted) ended. */
export function requestEnded(r: OpenRequest): void;
/** Requests in flight now. */
export function requestsInFlight(): number;
/** The sum so far, in ms: growing by 8,000 a second means 8 requests in flight on average. */
export function requestMsSoFar(): number;
