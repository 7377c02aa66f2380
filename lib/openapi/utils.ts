// /utils/v1: liveness and readiness (no credentials), the audit key, and the metrics (a scraper's token).
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { PUBLIC, errors, ok } from './shared';

const Ready = z
  .object({ ready: z.literal(true), checks: z.record(z.string(), z.literal('ok')).meta({ example: { database: 'ok', storage: 'ok' } }) })
  .meta({ id: 'Ready' });

const AuditKey = z
  .object({
    alg: z.literal('Ed25519'),
    key_id: z
      .string()
      .meta({ description: "The first 16 hex digits of the SHA-256 of the key's DER; checkpoints name it", example: '3f2a9c0d41b7e6a5' }),
    public_key: z
      .string()
      .meta({ description: 'SPKI PEM', example: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA…\n-----END PUBLIC KEY-----\n' }),
  })
  .meta({ id: 'AuditKey' });

export const utilsPaths = (): ZodOpenApiPathsObject => ({
  '/utils/v1/ping': {
    get: {
      operationId: 'ping',
      tags: ['Utils'],
      summary: 'Ping',
      security: PUBLIC,
      responses: { '200': ok('pong', z.object({ ping: z.literal('pong') })) },
    },
  },
  '/utils/v1/audit-key': {
    get: {
      operationId: 'getAuditKey',
      tags: ['Utils'],
      summary: "The public key that signs the event log's checkpoints and the auditor's exports",
      security: PUBLIC,
      responses: { '200': ok('The key', AuditKey) },
    },
  },
  '/utils/v1/metrics': {
    get: {
      operationId: 'getMetrics',
      tags: ['Utils'],
      summary: "The instance's metrics, in Prometheus' text format",
      description:
        "For `Authorization: Bearer <METRICS_TOKEN>`, or the admin key while METRICS_TOKEN is unset. Counters are this instance's " +
        "since it started; a `route` label is the route's pattern (`/silo/v1/entries/[entry_id]/files/[id]`) or `unmatched`, " +
        'never a raw path. docs/operations.md, Metrics, lists every metric.',
      security: [{ bearer: [] }],
      responses: {
        '200': {
          description: 'The metrics',
          content: { 'text/plain; version=0.0.4': { schema: { type: 'string', example: 'silo_stored_versions_total 42\n' } } },
        },
        ...errors(401, 403),
      },
    },
  },
  '/utils/v1/ready': {
    get: {
      operationId: 'checkReady',
      tags: ['Utils'],
      summary: 'Readiness: the database answers and the blob store is its own and writable',
      security: PUBLIC,
      responses: { '200': ok('Ready', Ready), ...errors(503) },
    },
  },
});
