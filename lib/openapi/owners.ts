// /admin/v1/owners: workspaces and their API keys.
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { KeyInput, NewApiKey, NewOwner, OwnerInput, OwnerList, OwnerRecord, OwnerUpdate } from '../schemas/access';
import { pageParams } from './entries';
import { BYPASS_GOVERNANCE, body, errors, ok, uuidParam, type DocLimits } from './shared';

const tags = ['Workspaces'];
const OWNER_ID = uuidParam('id', 'The owner (workspace) id');

export const ownerPaths = (l: DocLimits): ZodOpenApiPathsObject => ({
  '/admin/v1/owners': {
    get: {
      operationId: 'listOwners',
      tags,
      summary: 'List workspaces with their storage used (members see their own)',
      requestParams: { query: pageParams(l) },
      responses: { '200': ok('Owners', OwnerList), ...errors(401, 403, 422) },
    },
    post: {
      operationId: 'createOwner',
      tags,
      summary: 'Create a workspace with a live and a sandbox key (shown once)',
      requestBody: body(OwnerInput),
      responses: { '201': ok('Created', NewOwner), ...errors(401, 403, 415, 422) },
    },
  },
  '/admin/v1/owners/{id}': {
    parameters: [OWNER_ID],
    get: {
      operationId: 'getOwner',
      tags,
      summary: 'A workspace, its keys (prefixes only) and its storage used',
      responses: { '200': ok('Owner', OwnerRecord), ...errors(401, 403, 404) },
    },
    patch: {
      operationId: 'renameOwner',
      tags,
      summary: 'Rename a workspace (admins)',
      requestBody: body(OwnerUpdate),
      responses: { '200': ok('Renamed', OwnerRecord), ...errors(401, 403, 404, 415, 422) },
    },
    delete: {
      operationId: 'deleteOwner',
      tags,
      summary: 'Delete a workspace with everything in it (admins)',
      description:
        '409 `retained` (until when) or `legal_hold` while it holds a version under retention or an entry under a legal hold (recorded as workspace.delete_refused). Its bytes are freed by the blob sweep.',
      parameters: [BYPASS_GOVERNANCE],
      responses: { '204': ok('Deleted'), ...errors(400, 401, 403, 404, 409) },
    },
  },
  '/admin/v1/owners/{id}/keys': {
    parameters: [OWNER_ID],
    post: {
      operationId: 'createApiKey',
      tags,
      summary: 'A new API key (shown once)',
      requestBody: body(KeyInput),
      responses: { '201': ok('Created', NewApiKey), ...errors(401, 403, 404, 415, 422) },
    },
  },
  '/admin/v1/owners/{id}/keys/{key_id}': {
    parameters: [OWNER_ID, uuidParam('key_id', 'The key id')],
    delete: {
      operationId: 'revokeApiKey',
      tags,
      summary: 'Revoke a key at once',
      responses: { '204': ok('Revoked'), ...errors(401, 403, 404) },
    },
  },
});
