// /admin/v1/apps: applications and their client credentials.
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { AppInput, AppList, AppRecord, AppUpdate, NewAppSecret } from '../schemas/access';
import { pageParams } from './entries';
import { body, errors, ok, uuidParam, type DocLimits } from './shared';

const tags = ['Apps'];

export const appPaths = (l: DocLimits): ZodOpenApiPathsObject => ({
  '/admin/v1/apps': {
    get: {
      operationId: 'listApps',
      tags,
      summary: 'List applications',
      requestParams: { query: pageParams(l) },
      responses: { '200': ok('Apps', AppList), ...errors(401, 403, 422) },
    },
    post: {
      operationId: 'createApp',
      tags,
      summary: 'Register an application (secret shown once)',
      requestBody: body(AppInput),
      responses: { '201': ok('Created', NewAppSecret), ...errors(401, 403, 415, 422) },
    },
  },
  '/admin/v1/apps/{id}': {
    parameters: [uuidParam('id', 'The app id')],
    patch: {
      operationId: 'updateApp',
      tags,
      summary: 'Rename an application or change its trust (admins)',
      requestBody: body(AppUpdate),
      responses: { '200': ok('Updated', AppRecord), ...errors(401, 403, 404, 415, 422) },
    },
  },
  '/admin/v1/apps/{id}/secret': {
    parameters: [uuidParam('id', 'The app id')],
    post: {
      operationId: 'rotateAppSecret',
      tags,
      summary: 'Rotate the client secret (the old one stops working at once)',
      responses: { '200': ok('New secret', NewAppSecret), ...errors(401, 403, 404) },
    },
  },
});
