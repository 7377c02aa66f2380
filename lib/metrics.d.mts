/** The `route` of a request no route of the table serves (metrics.mjs). */
export const UNMATCHED: string;
/** The `method` of a request with a method no route serves. */
export const OTHER_METHOD: string;
/** A request ended: `route` is its route's pattern, or UNMATCHED; never a raw path. */
export function requestMeasured(method: string, route: string, status: number, seconds: number): void;
/** A version became stored (its change committed), `bytes` long. */
export function versionStored(bytes: number | bigint): void;
/** The content type of metricsText's answer: Prometheus' text format 0.0.4. */
export const METRICS_CONTENT_TYPE: string;
export interface DatabaseReadings {
  webhookPending: number;
  webhookOldestSeconds: number;
  recordsSinceCheckpoint: number;
}
export interface MetricsReadings {
  poolWaiting: number;
  /** absent: the database's gauges are left out */
  database?: DatabaseReadings;
}
/** The exposition text, with the gauges set from `readings`. */
export function metricsText(readings: MetricsReadings): Promise<string>;
