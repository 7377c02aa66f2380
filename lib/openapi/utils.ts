// /utils/v1: liveness and readiness (no credentials).
import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { PUBLIC, errors, ok } from './shared';

const Ready = z
  .object({ ready: z.literal(true), checks: z.record(z.string(), z.literal('ok')).meta({ example: { database: 'ok', storage: 'ok' } }) })
  .meta({ id: 'Ready' });

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
