// For domain tests of files: the contract's default limits, the file request schema, sha256.
import { createHash } from 'node:crypto';
import { DEFAULT_META_LIMITS } from '../schemas/common';
import { fileInput, type FileLimits } from '../schemas/files';

/**
 * The contract's default limits, with every blob in the blob store (smallBlobBytes 0): the tests
 * that use them are about the store. Small blobs kept in the database: SMALL_BLOB_LIMITS.
 */
export const TEST_FILE_LIMITS: FileLimits = { maxInlineBytes: 5 << 20, maxFileBytes: 1 << 30, uploadTtlSeconds: 3600, smallBlobBytes: 0 };

/** The defaults as a server runs with them: inline bytes up to 128 KiB kept in the database (small-blobs.ts). */
export const SMALL_BLOB_LIMITS: FileLimits = { ...TEST_FILE_LIMITS, smallBlobBytes: 128 * 1024 };

/** A file request as the API would have validated it. */
export const parseFileInput = (v: object) => fileInput(DEFAULT_META_LIMITS).parse(v);

export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
