// /utils/v1: liveness and readiness (no credentials).
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
