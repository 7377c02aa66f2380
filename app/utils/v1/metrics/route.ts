// GET /utils/v1/metrics: the instance's Prometheus metrics, for METRICS_TOKEN (else the admin key)
// — docs/api.md, Metrics; docs/operations.md, Metrics.
import { assertMetricsCaller } from '@/lib/http/metrics-caller';
import { metricsReadings } from '@/lib/http/metrics-readings';
import { route } from '@/lib/http/route';
import { METRICS_CONTENT_TYPE, metricsText } from '@/lib/metrics.mjs';

export const { GET } = route({
  GET: async (req) => {
    assertMetricsCaller(req.headers);
    const text = await metricsText(await metricsReadings());
    return new Response(text, { headers: { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' } });
  },
});
