// The OpenAPI 3.1 description, generated from the zod schemas that validate requests and describe
// records. Each resource's operations are in their own file; this puts them together.
import { createDocument } from 'zod-openapi';
import { limits } from '../http/context';
import { accessPaths } from './access';
import { appPaths } from './apps';
import { AUDITOR_KEYS_TAG, auditorKeyPaths } from './auditor-keys';
import { consolePaths } from './console';
import { enrollmentPaths } from './enrollments';
import { eventPaths } from './events';
import { backupPaths } from './backup';
import { exportPaths } from './exports';
import { webhookMessages, webhookPaths } from './webhooks';
import { entryPaths } from './entries';
import { filePaths } from './files';
import { legalHoldPaths, retentionPaths } from './retention';
import { ownerPaths } from './owners';
import { uploadPaths } from './uploads';
import { userPaths } from './users';
import { withSchemaTypes } from './typed-schemas';
import { withWitnessHeader } from './witness-header';
import { utilsPaths } from './utils';

const TAGS = [
  { name: 'Utils', description: 'Liveness and readiness' },
  { name: 'Access', description: 'Applications authorize themselves for an enrollment and get a token' },
  { name: 'Entries', description: 'Documents: a name, a folder, a key and meta, with their files' },
  { name: 'Files', description: 'Files of an entry: inline uploads or placeholders, versions, bytes' },
  { name: 'Events', description: 'The event log: one hash-chained record per change, and its verification' },
  AUDITOR_KEYS_TAG,
  { name: 'Webhooks', description: "Endpoints that get the event log's records, signed (Standard Webhooks), with retries" },
  { name: 'Retention', description: 'Retention rules, per-version retention and legal holds: nothing deleted before its time' },
  { name: 'Uploads', description: "Streaming, resumable, checksum-verified uploads of a placeholder's bytes" },
  { name: 'Workspaces', description: 'Owners and their API keys (admin)' },
  { name: 'Apps', description: 'Applications and their client credentials (admin)' },
  { name: 'Enrollments', description: 'An application acting for one owner in one environment (admin)' },
  { name: 'Users', description: 'Console users and their workspaces (admin)' },
  { name: 'Console', description: "The console's setup and its signed-in user" },
];

export function openApiDocument() {
  const l = limits();
  return withSchemaTypes(
    createDocument({
      openapi: '3.1.0',
      info: {
        title: 'Silo API',
        version: '1.0.0',
        description:
          'Entries and their files: inline base64 or a placeholder followed by a streamed, checksum-verified upload; versions on replacement. Errors are always {code, key, message, fields?}.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      // Relative: the document describes the server that serves it.
      servers: [{ url: '/', description: 'This server' }],
      tags: TAGS,
      security: [{ bearer: [] }, { session: [] }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: "Owner API key, enrollment token, an auditor's key (reads only), or the admin key",
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'next-auth.session-token',
            description: "The console's session (same-origin requests; mutations need a matching Origin)",
          },
        },
      },
      webhooks: webhookMessages(),
      paths: withWitnessHeader({
        ...utilsPaths(),
        ...accessPaths(),
        ...entryPaths(l),
        ...filePaths(l),
        ...uploadPaths(),
        ...eventPaths(l),
        ...retentionPaths(),
        ...legalHoldPaths(),
        ...exportPaths(),
        ...backupPaths(),
        ...auditorKeyPaths(),
        ...webhookPaths(l),
        ...ownerPaths(l),
        ...appPaths(l),
        ...enrollmentPaths(l),
        ...userPaths(),
        ...consolePaths(),
      }),
    }),
  );
}
