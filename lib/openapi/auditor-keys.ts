// /silo/v1/auditor-keys: read-only keys for an auditor, one environment and period (docs/api.md, Auditor keys).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { AUDITOR_KEY_MAX_SECONDS, AuditorKeyInput, AuditorKeyList, NewAuditorKey } from '../schemas/auditor-keys';
import { body, errors, ok, uuidParam } from './shared';

const tags = ['Auditor keys'];

export const AUDITOR_KEYS_TAG = {
  name: 'Auditor keys',
  description:
    'Read-only keys for an auditor: entries, files, events and the export of the versions stored in one period, nothing else; every write is 403 read_only_key, a read outside the period 403 outside_period; each use is an auditor_key.used record',
};

export const auditorKeyPaths = (): ZodOpenApiPathsObject => ({
  '/silo/v1/auditor-keys': {
    get: {
      operationId: 'listAuditorKeys',
      tags,
      summary: "The environment's auditors' keys, newest first, revoked and expired ones included (no secrets)",
      description: 'A workspace API key, or a console user of the workspace (X-Silo-Owner, X-Silo-Sandbox). Not paged.',
      responses: { '200': ok('The keys', AuditorKeyList), ...errors(400, 401, 403, 404) },
    },
    post: {
      operationId: 'createAuditorKey',
      tags,
      summary: "A new auditor's key for the period [from, to) (whole UTC days), shown in this answer only",
      description: `\`from\` before \`to\`; \`expires_in\` 1 … ${AUDITOR_KEY_MAX_SECONDS} seconds (366 days); \`note\` at most 1,024 characters. Records \`auditor_key.created\`. An enrollment token, the admin key and an auditor's key are 403.`,
      requestBody: body(AuditorKeyInput),
      responses: { '201': ok('Created: `key` is shown this once', NewAuditorKey), ...errors(400, 401, 403, 404, 413, 415, 422) },
    },
  },
  '/silo/v1/auditor-keys/{id}': {
    parameters: [uuidParam('id', "The auditor's key id")],
    delete: {
      operationId: 'revokeAuditorKey',
      tags,
      summary: 'Revoke the key at once (its next request is 401); records `auditor_key.revoked`',
      responses: { '204': ok('Revoked'), ...errors(401, 403, 404) },
    },
  },
});
