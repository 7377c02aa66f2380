// A file as the API answers with it: its record with its history (`previous`), computed here so
// that every answer (GET, POST, PUT, PATCH, a restore, an upload's completion) shows the same
// record; lib/http only writes it.
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/client';
import type { File } from '../../db/generated/client';
import type { Scope } from '../../db/scope';
import type { FileAtUrl, FileRecord } from '../../schemas/files';
import type { CreatedFile } from './create-file';
import type { UrlSigner } from './file-url';
import { inFileScope } from './find-file';
import { listPreviousVersions } from './list-previous-versions';
import { presentFile, presentFileAtUrl } from './present-file';
import { slotHistoriesOf } from './slot-history';

export interface RecordContext {
  db: Tx;
  signer: UrlSigner;
}

/** A file as the API shows it, with its earlier versions. */
export async function fileRecord(c: RecordContext, file: File): Promise<FileRecord> {
  return presentFile(file, c.signer, await listPreviousVersions(c.db, file));
}

/**
 * The record of what `createFile` made: an object, or, for a version one committed statement made
 * current, its JSON already written as text in pieces (to be sent in order, never joined).
 */
export type CreatedRecord = { record: FileRecord } | { text: Buffer[] };

/**
 * A created file's record with its history. A version one statement made current has its history
 * as cached text (slot-history.ts), spliced into the record's JSON where `previous` goes: the
 * same bytes as `JSON.stringify(fileRecord(…))` would give, without building or reading the
 * whole history (docs/design/database.md, The history of a replacement).
 */
export async function createdFileRecord(c: RecordContext, created: Omit<CreatedFile, 'created'>): Promise<CreatedRecord> {
  const { file, made } = created;
  if (!made) return { record: await fileRecord(c, file) };
  const previous = await slotHistoriesOf(c.db).previousOf(c.db, made);
  const record: Record<string, unknown> = presentFile(file, c.signer, []);
  record.previous = PREVIOUS_HERE; // in the place the key already has
  const [head, tail] = JSON.stringify(record).split(JSON.stringify(PREVIOUS_HERE));
  return { text: [Buffer.from(`${head}[`), ...previous, Buffer.from(`]${tail}`)] };
}

/**
 * Marks where `previous` goes in a record's JSON: a string no record holds (NUL is refused in
 * every string, and this one is not known outside the process).
 */
const PREVIOUS_HERE = `\u0000${randomUUID()}`;

/**
 * What `PUT {url}` answers once the bytes are stored: the full record to a scope that reaches the
 * file's workspace; to anyone else (the url is all they hold) only what `GET {url}` tells.
 */
export async function fileAtUrlRecord(c: RecordContext, file: File, scope: Scope | undefined): Promise<FileRecord | FileAtUrl> {
  if (scope && (await inFileScope(c.db, file, scope))) return fileRecord(c, file);
  return presentFileAtUrl(file, c.signer);
}
