// The process's metrics as a scraper reads them (a real parser of the text format): requests by
// method, route pattern and status, a method no route serves under one label, stored versions,
// the gauges the route sets, and the database's left out when it could not be read.
import { describe, expect, it } from 'vitest';
import { parsedByPrometheusClient } from './testing/prometheus-client-parser';
import { scraped } from './testing/scraped';
import { METRICS_CONTENT_TYPE, metricsText, OTHER_METHOD, requestMeasured, UNMATCHED, versionStored } from './metrics.mjs';

const database = { webhookPending: 3, webhookOldestSeconds: 42.5, recordsSinceCheckpoint: 7 };

describe('the metrics', () => {
  it('answer in the text format 0.0.4', () => {
    expect(METRICS_CONTENT_TYPE).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('count requests by method, route and status, every unknown method as one label', async () => {
    const route = '/silo/v1/entries/[entry_id]';
    const before = scraped(await metricsText({ poolWaiting: 0 }));
    requestMeasured('GET', route, 200, 0.004);
    requestMeasured('GET', route, 200, 0.02);
    requestMeasured('GET', route, 404, 0.001);
    requestMeasured('BREW', UNMATCHED, 405, 0.001);
    requestMeasured('PROPFIND', UNMATCHED, 405, 0.001);
    const after = scraped(await metricsText({ poolWaiting: 0 }));
    const moved = (labels: Record<string, string>) =>
      after.value('silo_http_requests_total', labels) - before.value('silo_http_requests_total', labels);
    expect(moved({ method: 'GET', route, status: '200' })).toBe(2);
    expect(moved({ method: 'GET', route, status: '404' })).toBe(1);
    expect(moved({ method: OTHER_METHOD, route: UNMATCHED, status: '405' })).toBe(2);
    expect(after.labelValues('silo_http_requests_total', 'method')).not.toContain('BREW');
    expect(after.families.get('silo_http_requests_total')?.type).toBe('COUNTER');
    expect(after.families.get('silo_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
  });

  it("time requests by method and route: each label set's buckets, count and sum, as Prometheus' own parser reads them", async () => {
    const sample = async (name: string, labels: Record<string, string> = {}) => {
      const families = await parsedByPrometheusClient(await metricsText({ poolWaiting: 0 }));
      const family = families.find((f) => f.name === 'silo_http_request_duration_seconds');
      expect(family?.type).toBe('histogram');
      return (
        family?.samples.find(
          (s) =>
            s.name === name &&
            s.labels.route === '/utils/v1/audit-key' &&
            s.labels.method === 'GET' &&
            Object.entries(labels).every(([k, v]) => s.labels[k] === v),
        )?.value ?? 0
      );
    };
    const [count, sum, fast, all] = [
      await sample('silo_http_request_duration_seconds_count'),
      await sample('silo_http_request_duration_seconds_sum'),
      await sample('silo_http_request_duration_seconds_bucket', { le: '0.01' }),
      await sample('silo_http_request_duration_seconds_bucket', { le: '+Inf' }),
    ];
    requestMeasured('GET', '/utils/v1/audit-key', 200, 0.003);
    requestMeasured('GET', '/utils/v1/audit-key', 304, 0.2);
    requestMeasured('GET', '/utils/v1/ping', 200, 0.003); // another label set: not counted above
    expect((await sample('silo_http_request_duration_seconds_count')) - count).toBe(2);
    expect((await sample('silo_http_request_duration_seconds_sum')) - sum).toBeCloseTo(0.203, 6);
    expect((await sample('silo_http_request_duration_seconds_bucket', { le: '0.01' })) - fast).toBe(1);
    expect((await sample('silo_http_request_duration_seconds_bucket', { le: '+Inf' })) - all).toBe(2);
  });

  it('count the versions stored and their bytes', async () => {
    const before = scraped(await metricsText({ poolWaiting: 0 }));
    versionStored(10n);
    versionStored(1_000_000);
    const after = scraped(await metricsText({ poolWaiting: 0 }));
    expect(after.value('silo_stored_versions_total') - before.value('silo_stored_versions_total')).toBe(2);
    expect(after.value('silo_stored_bytes_total') - before.value('silo_stored_bytes_total')).toBe(1_000_010);
  });

  it("show the gauges read at scrape time, and leave the database's out when it was not read", async () => {
    const read = scraped(await metricsText({ poolWaiting: 4, database }));
    expect(read.value('silo_db_pool_waiting')).toBe(4);
    expect(read.value('silo_webhook_deliveries_pending')).toBe(3);
    expect(read.value('silo_webhook_oldest_pending_seconds')).toBe(42.5);
    expect(read.value('silo_event_records_since_checkpoint')).toBe(7);
    const unread = scraped(await metricsText({ poolWaiting: 1 }));
    expect(unread.value('silo_db_pool_waiting')).toBe(1);
    for (const name of ['silo_webhook_deliveries_pending', 'silo_webhook_oldest_pending_seconds', 'silo_event_records_since_checkpoint'])
      expect(unread.families.has(name)).toBe(false);
  });

  it("carry the process's own: resident memory and event-loop lag", async () => {
    const read = scraped(await metricsText({ poolWaiting: 0 }));
    expect(read.value('process_resident_memory_bytes')).toBeGreaterThan(1_000_000);
    expect(read.families.get('nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');
    expect(read.families.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });
});
