// The few S3 calls the store makes, on one bucket, with S3's "not there" answers turned into
// undefined/false so the store reads like the local one.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { must } from '../../must';
import type { LockParams } from './object-lock';

export interface Part {
  n: number;
  etag: string;
}

type S3Error = Error & { $metadata?: { httpStatusCode?: number } };
const status = (err: unknown) => (err as S3Error)?.$metadata?.httpStatusCode;
export const isNotFound = (err: unknown) => status(err) === 404 || ['NoSuchKey', 'NotFound', 'NoSuchUpload'].includes((err as Error)?.name);
/** A conditional write lost: the object exists (412) or another write to it is in progress (409). */
export const isPreconditionFailed = (err: unknown) => status(err) === 412 || (err as Error)?.name === 'ConditionalRequestConflict';
/** The server has no such operation (s3rver answers AbortMultipartUpload 405). */
const isUnsupported = (err: unknown) => status(err) === 405 || status(err) === 501 || (err as Error)?.name === 'NotImplemented';

/** CopyObject copies at most 5 GiB in one request; larger objects go by UploadPartCopy, 512 MiB a part. */
export const COPY_LIMIT = 5 * 1024 ** 3;
const COPY_PART = 512 * 1024 ** 2;

export class Bucket {
  constructor(
    readonly client: S3Client,
    readonly name: string,
  ) {}

  /**
   * `lock`: the object is written locked, with the checksums S3 wants beside lock headers:
   * x-amz-checksum-sha256 (`sha256`, the blob's hash, which S3 then verifies) and Content-MD5 (the
   * older rule, which S3-compatible servers may still apply). The client sends neither by itself
   * (requestChecksumCalculation: WHEN_REQUIRED, lib/storage/index.ts).
   */
  async put(
    key: string,
    body: Uint8Array | string,
    opts: { ifNoneMatch?: boolean; lock?: LockParams; sha256?: string } = {},
  ): Promise<void> {
    const checksums = opts.lock
      ? {
          ChecksumSHA256: opts.sha256 && Buffer.from(opts.sha256, 'hex').toString('base64'),
          ContentMD5: createHash('md5').update(body).digest('base64'),
        }
      : {};
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.name,
        Key: key,
        Body: body,
        IfNoneMatch: opts.ifNoneMatch ? '*' : undefined,
        ...opts.lock,
        ...checksums,
      }),
    );
  }

  /** The object's bytes (small objects only: state and tails), or undefined when it is missing. */
  async getBytes(key: string): Promise<Buffer | undefined> {
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket: this.name, Key: key }));
      return Buffer.from(await must(got.Body, `the body of ${key}`).transformToByteArray());
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** A stream of the object's bytes (a range of them); undefined when it is missing. */
  async stream(key: string, range?: { start: number; end: number }): Promise<Readable | undefined> {
    let got: GetObjectCommandOutput;
    try {
      got = await this.client.send(
        new GetObjectCommand({ Bucket: this.name, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const body = got.Body as Readable;
    if (!range) return body;
    // Servers may answer more than asked (s3rver reads `bytes=0-0` as `bytes=0-`) or, as HTTP lets
    // them, ignore Range: serve exactly the range asked for, or fail rather than serve other bytes.
    const served = /^bytes (\d+)-(\d+)\/(\d+)/.exec(got.ContentRange ?? '');
    const first = served ? Number(served[1]) : 0;
    const last = served ? Number(served[2]) : (got.ContentLength ?? 0) - 1;
    const endOfObject = served ? last === Number(served[3]) - 1 : true;
    if (first !== range.start || (last < range.end && !endOfObject)) {
      body.destroy();
      throw new Error(`asked ${key} for bytes ${range.start}-${range.end}, the server sent ${first}-${last}`);
    }
    return last <= range.end ? body : Readable.from(take(body, range.end - range.start + 1));
  }

  async head(key: string): Promise<{ size: number; modifiedAt: Date } | undefined> {
    try {
      const got = await this.client.send(new HeadObjectCommand({ Bucket: this.name, Key: key }));
      return { size: got.ContentLength ?? 0, modifiedAt: got.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.name, Key: key }));
  }

  /** Every object under `prefix`, a page (≤ 1,000) at a time, in key order. */
  async *list(prefix: string): AsyncIterable<{ key: string; size: number; modifiedAt: Date }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.name, Prefix: prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? [])
        yield { key: must(o.Key, 'a listed key'), size: o.Size ?? 0, modifiedAt: o.LastModified ?? new Date(0) };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async createMultipart(key: string, lock?: LockParams): Promise<string> {
    const got = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.name, Key: key, ...lock }));
    return must(got.UploadId, `the upload id for ${key}`);
  }

  async uploadPart(key: string, uploadId: string, n: number, body: Uint8Array): Promise<string> {
    const got = await this.client.send(
      new UploadPartCommand({ Bucket: this.name, Key: key, UploadId: uploadId, PartNumber: n, Body: body }),
    );
    return must(got.ETag, `the ETag of part ${n} of ${key}`);
  }

  async completeMultipart(key: string, uploadId: string, parts: Part[]): Promise<void> {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.name,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.n, ETag: p.etag })) },
      }),
    );
  }

  /** Aborts a multipart upload; one that is gone already, or a server that cannot abort, is not an error. */
  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.name, Key: key, UploadId: uploadId }));
    } catch (err) {
      if (!isNotFound(err) && !isUnsupported(err)) throw err;
    }
  }

  /** A server-side copy: one CopyObject up to 5 GiB, UploadPartCopy above it (s3rver has no UploadPartCopy); `lock` goes with the request that creates it. */
  async copy(from: string, to: string, size: number, lock?: LockParams): Promise<void> {
    const source = `${this.name}/${from.split('/').map(encodeURIComponent).join('/')}`;
    if (size <= COPY_LIMIT) {
      await this.client.send(new CopyObjectCommand({ Bucket: this.name, Key: to, CopySource: source, ...lock }));
      return;
    }
    const uploadId = await this.createMultipart(to, lock);
    try {
      const parts: Part[] = [];
      for (let start = 0, n = 1; start < size; start += COPY_PART, n++) {
        const end = Math.min(start + COPY_PART, size) - 1;
        const got = await this.client.send(
          new UploadPartCopyCommand({
            Bucket: this.name,
            Key: to,
            UploadId: uploadId,
            PartNumber: n,
            CopySource: source,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        parts.push({ n, etag: must(got.CopyPartResult?.ETag, `the ETag of copied part ${n}`) });
      }
      await this.completeMultipart(to, uploadId, parts);
    } catch (err) {
      await this.abortMultipart(to, uploadId).catch(() => {});
      throw err;
    }
  }
}

/** The first `n` bytes of `stream`; ending early destroys it (for-await's return). */
async function* take(stream: Readable, n: number): AsyncIterable<Buffer> {
  for await (const chunk of stream) {
    const c = chunk as Buffer;
    if (c.length >= n) {
      yield c.subarray(0, n);
      return;
    }
    yield c;
    n -= c.length;
  }
}
