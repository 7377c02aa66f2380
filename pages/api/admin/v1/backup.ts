// GET /admin/v1/backup — the whole instance as one moment had it, a ZIP streamed with its
// Content-Length (administrators: the admin key or a console admin). docs/operations.md, Backup and
// restore; lib/silo/backup. A Node route: the bytes go straight to the socket, with its backpressure.
import { database } from '@/lib/db/client';
import { databaseId } from '@/lib/db/database-id';
import { adminContext } from '@/lib/http/admin';
import { callerOf } from '@/lib/http/node-adapter';
import { nodeRoute } from '@/lib/http/node-route';
import { sendZip, zipHeaders } from '@/lib/http/send-zip';
import { log } from '@/lib/log';
import { backupName, createBackup } from '@/lib/silo/backup/create-backup';
import { filesStore } from '@/lib/storage';

export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

export default nodeRoute({
  GET: async (req, res) => {
    const a = await adminContext(callerOf(req));
    const { plan, zip, size } = await createBackup({ db: a.db, store: filesStore(a.db), kind: (await database()).kind });
    const { tables, blobs } = plan.manifest;
    log.info(
      { actor: a.actor, size, rows: tables.reduce((n, t) => n + t.rows, 0), blobs: blobs.count, bytes: blobs.bytes },
      'backup started',
    );
    zipHeaders(res, backupName(plan.manifest.source.database_id, plan.manifest.created_at));
    await sendZip(res, zip, size);
  },
  // GET's checks and headers, without taking the backup (its Content-Length is known only by
  // reading every table: RFC 9110 §9.3.2 lets HEAD omit it).
  HEAD: async (req, res) => {
    const a = await adminContext(callerOf(req));
    zipHeaders(res, backupName(await databaseId(a.db), new Date().toISOString()));
    res.end();
  },
});
