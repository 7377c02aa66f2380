// What a backup holds (docs/operations.md, Backup and restore): one ZIP written as the export's is
// (lib/silo/export/write-export.ts), its members in this order —
//   manifest.json           what follows, each member's size and SHA-256, and the schema it needs;
//   tables/<table>.jsonl    every row of every table, one JSON object a line (to_jsonb of the row);
//   blobs.jsonl             the stored bytes, one ["blobs/<sha256>", size, sha256, ms] a line;
//   blobs/<sha256>          each of those bytes, in that order.
// blobs.jsonl is listed in the manifest with its own SHA-256, so every byte of the backup is
// covered by the manifest while the manifest stays small whatever the number of versions.

export const BACKUP_FORMAT = 'silo-backup/1';

/**
 * Tables a backup leaves out: the migration history and the rule files' record (the target's own
 * start writes them), and what
 * an instance keeps for a while for itself — upload leases (a held copy is the old store's), rate
 * windows, job leases, the read caches' change log and its horizon.
 */
export const LEFT_OUT = new Set([
  '_prisma_migrations',
  '_sql_rules',
  'upload_leases',
  'rate_windows',
  'job_leases',
  'cache_changes',
  'cache_horizon',
]);

/**
 * Settings that belong to the database, not to the archive: its own id (its blob store is bound to
 * it), the setup link's hash and the blob sweep's horizon. The others (the links' signing secret)
 * go with the backup.
 */
export const LOCAL_SETTINGS = ['database_id', 'setup_token_hash', 'blob_sweep_horizon'];

export interface BackupTable {
  name: string;
  rows: number;
  member: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  created_at: string;
  source: { database: 'pglite' | 'postgres'; database_id: string };
  /** the migrations the source had applied: a target restores only onto the same schema */
  migrations: string[];
  tables: BackupTable[];
  blobs: { member: 'blobs.jsonl'; count: number; bytes: number; size: number; sha256: string };
}

export const tableMember = (table: string) => `tables/${table}.jsonl`;
export const blobMember = (hash: string) => `blobs/${hash}`;
export const MANIFEST = 'manifest.json';
export const BLOB_LIST = 'blobs.jsonl';
