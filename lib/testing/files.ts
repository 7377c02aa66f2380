// For domain tests of files: the contract's default limits, the file request schema, sha256.
import { createHash } from 'node:crypto';
import { DEFAULT_META_LIMITS } from '../schemas/common';
import { fileInput, type FileLimits } from '../schemas/files';

export const TEST_FILE_LIMITS: FileLimits = { maxInlineBytes: 5 << 20, maxFileBytes: 1 << 30, uploadTtlSeconds: 3600 };

/** A file request as the API would have validated it. */
export const parseFileInput = (v: object) => fileInput(DEFAULT_META_LIMITS).parse(v);

export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
