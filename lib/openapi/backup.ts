// /admin/v1/backup: the whole instance at one moment, one ZIP (docs/operations.md, Backups and restores).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { errors, zipResponse } from './shared';

export const backupPaths = (): ZodOpenApiPathsObject => ({
  '/admin/v1/backup': {
    get: {
      operationId: 'backupInstance',
      tags: ['Workspaces'],
      summary: 'A backup of the whole instance at one moment, streamed as one ZIP (administrators)',
      description: [
        'Every table read in one snapshot while the server goes on serving: workspaces, keys and users (their hashes), applications, enrollments, entries, versions, retention rules and holds, webhooks and deliveries, every event chain with its checkpoints and time-stamps. The audit key and NEXTAUTH_SECRET are not in it: keep them beside it.',
        'Members (stored uncompressed, zip64 where needed), in order: `manifest.json` (`{"format": "silo-backup/1", "migrations", "tables": [{"name", "rows", "member", "size", "sha256"}], "blobs": {"member": "blobs.jsonl", "count", "bytes", "size", "sha256"}}`), `tables/<table>.jsonl` (one row a line, PostgreSQL\'s JSON of it), `blobs.jsonl` (`["blobs/<sha256>", size, sha256, ms]` a line), then `blobs/<sha256>` for each.',
        'Content-Length is sent. Load it with `npm run restore -- FILE.zip`, which checks every member against the manifest first.',
      ].join('\n\n'),
      responses: {
        '200': zipResponse('silo-backup-<database id>-<YYYYMMDDTHHMMSSZ>.zip'),
        ...errors(401, 403),
      },
    },
  },
});
