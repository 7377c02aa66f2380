// /admin/v1/users: console users and the workspaces they belong to (admins only).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { UserInput, UserList, UserRecord, UserUpdate } from '../schemas/users';
import { body, errors, ok, uuidParam } from './shared';

const tags = ['Users'];

export const userPaths = (): ZodOpenApiPathsObject => ({
  '/admin/v1/users': {
    get: {
      operationId: 'listUsers',
      tags,
      summary: 'Every console user (one page)',
      responses: { '200': ok('Users', UserList), ...errors(401, 403) },
    },
    post: {
      operationId: 'createUser',
      tags,
      summary: 'Create a console user',
      requestBody: body(UserInput),
      responses: { '201': ok('Created', UserRecord), ...errors(401, 403, 409, 415, 422) },
    },
  },
  '/admin/v1/users/{id}': {
    parameters: [uuidParam('id', 'The user id')],
    get: {
      operationId: 'getUser',
      tags,
      summary: 'A console user',
      responses: { '200': ok('The user', UserRecord), ...errors(401, 403, 404) },
    },
    patch: {
      operationId: 'updateUser',
      tags,
      summary: "Update name, password, admin or workspaces (replaced whole); a new password ends the user's sessions",
      requestBody: body(UserUpdate),
      responses: { '200': ok('Updated', UserRecord), ...errors(401, 403, 404, 415, 422) },
    },
    delete: {
      operationId: 'deleteUser',
      tags,
      summary: "Remove a console user (the user's sessions end at once)",
      responses: { '204': ok('Deleted'), ...errors(401, 403, 404) },
    },
  },
});
