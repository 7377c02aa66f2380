// The export's two tables, entries.csv and files.csv: their columns (with the GDPdU type each has
// in index.xml) and rows. One list of columns serves the CSV header, the rows and index.xml.

export interface ExportVersion {
  fileId: string;
  entryId: string;
  entryKey: string | null;
  folder: string;
  category: string;
  fileKey: string | null;
  version: number;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  storedAt: Date;
  createdBy: { type?: string; id?: string | null; name?: string } | null;
  /** the ZIP member holding its bytes */
  path: string;
}

export interface ExportEntry {
  id: string;
  key: string | null;
  folder: string;
  name: string;
  createdAt: Date;
  /** the entry's meta as JSON text, in its written order */
  meta: string;
}

export type ColumnType = 'AlphaNumeric' | 'Numeric' | 'Date';

export interface Column<R> {
  name: string;
  description: string;
  type: ColumnType;
  value(row: R): string;
}

export interface Table<R> {
  url: string;
  name: string;
  description: string;
  /** the primary key's column (the first) */
  columns: Column<R>[];
  /** a column holding the primary key of another table */
  foreignKey?: { column: string; references: string };
}

const text = <R>(name: string, description: string, value: (r: R) => string | null | undefined): Column<R> => ({
  name,
  description,
  type: 'AlphaNumeric',
  value: (r) => value(r) ?? '',
});

export const ENTRIES_TABLE: Table<ExportEntry> = {
  url: 'entries.csv',
  name: 'entries',
  description: 'Entries (documents) with a version stored in the period',
  columns: [
    text('entry_id', 'Entry id (UUID)', (e) => e.id),
    text('key', "The entry's key, unique in its workspace and environment", (e) => e.key),
    text('folder', 'Folder path', (e) => e.folder),
    text('name', 'Name', (e) => e.name),
    text('created_at', 'Created at (UTC, ISO 8601)', (e) => e.createdAt.toISOString()),
    text('meta', 'Metadata (JSON object of strings)', (e) => e.meta),
  ],
};

export const FILES_TABLE: Table<ExportVersion> = {
  url: 'files.csv',
  name: 'files',
  description: 'File versions stored in the period, one row per version; bytes in the archive at path',
  columns: [
    text('file_id', 'Version id (UUID)', (v) => v.fileId),
    text('entry_id', 'Entry id (entries.entry_id)', (v) => v.entryId),
    text('entry_key', "The entry's key", (v) => v.entryKey),
    text('folder', "The entry's folder", (v) => v.folder),
    text('category', 'Category (format or attachment)', (v) => v.category),
    text('file_key', "The file's key in its entry", (v) => v.fileKey),
    { name: 'version', description: 'Version number of the file (1, 2, ...)', type: 'Numeric', value: (v) => String(v.version) },
    text('name', 'File name as received', (v) => v.name),
    text('mime', 'Media type', (v) => v.mime),
    { name: 'size', description: 'Size in bytes', type: 'Numeric', value: (v) => String(v.size) },
    text('sha256', 'SHA-256 of the bytes (hex)', (v) => v.sha256),
    text('stored_at', 'Stored at (UTC, ISO 8601)', (v) => v.storedAt.toISOString()),
    { name: 'stored_on', description: 'Day stored (UTC)', type: 'Date', value: (v) => v.storedAt.toISOString().slice(0, 10) },
    text('created_by_type', 'Who made the version: app, user, owner_key, admin', (v) => v.createdBy?.type),
    text('created_by_id', 'Their id', (v) => v.createdBy?.id),
    text('created_by_name', 'Their name', (v) => v.createdBy?.name),
    text('path', 'The bytes: member of this archive', (v) => v.path),
  ],
  foreignKey: { column: 'entry_id', references: 'entries' },
};
