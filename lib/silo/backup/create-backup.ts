// GET /admin/v1/backup's domain call: the lease, the plan and the ZIP (backup-format.ts). The lease
// is taken before the snapshot and given back when the ZIP ends or is abandoned (write-export.ts
// disposes of its plan either way), so no blob the backup lists is freed before it is sent.
import type { Db } from '../../db/client';
import type { BlobStore } from '../../storage/blob-store';
import { type ExportZip, writeExport } from '../export/write-export';
import { takeBackupLease } from './backup-lease';
import { type BackupPlan, planBackup } from './plan-backup';

export interface Backup {
  plan: BackupPlan;
  zip: ExportZip;
  size: number;
}

export async function createBackup(o: { db: Db; store: BlobStore; kind: 'pglite' | 'postgres'; now?: Date }): Promise<Backup> {
  const lease = await takeBackupLease(o.db);
  let plan: BackupPlan;
  try {
    plan = await planBackup(o);
  } catch (err) {
    await lease.release().catch(() => {});
    throw err;
  }
  const zip = writeExport({
    members: () => plan.members(),
    dispose: async () => {
      await plan.dispose();
      await lease.release().catch(() => {});
    },
  });
  try {
    return { plan, zip, size: await zip.size };
  } catch (err) {
    zip.abort();
    throw err;
  }
}

/** The file name a backup is sent as: silo-backup-<database id>-<UTC time>.zip */
export const backupName = (databaseId: string, at: string) =>
  `silo-backup-${databaseId}-${at.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.zip`;
