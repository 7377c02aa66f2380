// /admin/v1/enrollments: an application acting for one owner in one environment.
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { EnrollmentInput, EnrollmentList, EnrollmentRecord, EnrollmentUpdate, enrollmentListQuery } from '../schemas/access';
import { body, errors, ok, uuidParam, type DocLimits } from './shared';

const tags = ['Enrollments'];

export const enrollmentPaths = (l: DocLimits): ZodOpenApiPathsObject => ({
  '/admin/v1/enrollments': {
    get: {
      operationId: 'listEnrollments',
      tags,
      summary: "List enrollments (members see their workspaces')",
      requestParams: { query: enrollmentListQuery(l.maxListLimit) },
      responses: { '200': ok('Enrollments', EnrollmentList), ...errors(401, 403, 422) },
    },
    post: {
      operationId: 'createEnrollment',
      tags,
      summary: 'Enroll an application in a workspace (admins); the app then authorizes with owner_id alone',
      description:
        'An enrollment of that application, owner and environment that exists already is answered as it is (200), disabled or not.',
      requestBody: body(EnrollmentInput),
      responses: {
        '201': ok('Enrolled', EnrollmentRecord),
        '200': ok('Already enrolled', EnrollmentRecord),
        ...errors(401, 403, 404, 415, 422),
      },
    },
  },
  '/admin/v1/enrollments/{id}': {
    parameters: [uuidParam('id', 'The enrollment id')],
    patch: {
      operationId: 'updateEnrollment',
      tags,
      summary: 'Disable or enable (at once, tokens included)',
      requestBody: body(EnrollmentUpdate),
      responses: { '200': ok('Updated', EnrollmentRecord), ...errors(401, 403, 404, 415, 422) },
    },
  },
});
