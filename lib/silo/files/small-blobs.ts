// Small blobs kept in the database: the bytes of an inline file up to SMALL_BLOB_MAX_BYTES live
// in their `blobs` row (`data`), written by the same autocommit statement that records the file
// (insertCurrent with its bytes, replace-file.ts). A file, its version and its bytes are then one
// commit: one round trip instead of a transaction's four, and the database's write-ahead log
// makes the bytes durable, its group commit sharing one flush among the requests that commit
// together, where a blob file costs a write, two fsyncs and a rename each (measured: a new 4 KiB
// file 55–64 % faster on PostgreSQL with its bytes in the row).
// Larger bytes, uploads and anything stored before go to the blob store as ever; a hash may be in
// both. Every reader finds them through the one store the server hands out (filesStore,
// lib/storage/database-store.ts), which reads the database first and frees both.
import { SMALL_BLOB_CEILING } from '../../config';

/** The largest SMALL_BLOB_MAX_BYTES may be: no blob over this size is in the database. */
export { SMALL_BLOB_CEILING };
