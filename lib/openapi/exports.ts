// /silo/v1/export: the auditor's export of the caller's chain for a period (docs/api.md, Export).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { EXPORT_MAX_DAYS, exportQuery } from '../schemas/export';
import { errors, zipResponse } from './shared';

export const exportPaths = (): ZodOpenApiPathsObject => ({
  '/silo/v1/export': {
    get: {
      operationId: 'exportForAuditor',
      tags: ['Events'],
      summary: "An auditor's export: the period's file versions, tables, event records and checkpoints in one signed ZIP",
      description: [
        `The caller's workspace and environment (a console user names the workspace with X-Silo-Owner). The period is whole UTC days, \`from\` to \`to\` inclusive, at most ${EXPORT_MAX_DAYS} days; a version belongs to it by the time it was stored.`,
        'Members (stored uncompressed, zip64 where needed): `manifest.json` (`{"files": {"<member>": {"sha256", "size"}}, …}`) and `manifest.sig` (base64 Ed25519 over manifest.json, the key of GET /utils/v1/audit-key), `index.xml` and `gdpdu-01-09-2004.dtd` (GDPdU), `entries.csv`, `files.csv` (RFC 4180, UTF-8 with BOM, header row), `events.jsonl` (the records made in the period, the last with a signed checkpoint of its own), `checkpoints.jsonl`, and `files/<entry_id>/<file_id>/v<version>-<name>` with each version\'s bytes as received (each path segment at most 255 bytes of UTF-8: a longer name is cut, keeping `~` and its extension).',
        'Content-Length is sent. Records `export.created` before the first byte. Check it with `npm run verify-export -- FILE.zip`.',
        "An auditor's key gets the days asked for that fall in its period (the file name and manifest name them); none: 403 `outside_period`.",
      ].join('\n\n'),
      requestParams: { query: exportQuery },
      responses: {
        '200': zipResponse('silo-export-<workspace>-<live|sandbox>-<from>-<to>.zip'),
        ...errors(400, 401, 403, 422),
      },
    },
  },
});
