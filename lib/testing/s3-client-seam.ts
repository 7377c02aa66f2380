// For tests of what no local S3 server implements (Object Lock: s3rver answers its calls 405/501):
// an S3 client whose requests go to s3rver for real, each one recorded as sent (signed, every header
// the SDK added), and those a test names answered here instead, with the status, headers and XML
// body AWS or MinIO would send. A middleware on the client's stack, inside the deserializer, so an
// answer given here is parsed by the SDK exactly as a server's would be.
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';

export interface SentRequest {
  method: string;
  /** the path, bucket included (path-style) */
  path: string;
  query: Record<string, string | string[] | null>;
  /** header names lowercased */
  headers: Record<string, string>;
  /** the body, when it is text (the XML of PutObjectRetention, PutObjectLegalHold, CompleteMultipartUpload) */
  body?: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

type Answer = { when: (r: SentRequest) => boolean; reply: (r: SentRequest) => Reply | undefined };

export interface ClientSeam {
  /** every request the client sent or had answered here, in order */
  sent: SentRequest[];
  /** From now on, requests `when` matches are answered with `reply` instead of reaching the server (the latest answer first). */
  answer(when: (r: SentRequest) => boolean, reply: Reply | ((r: SentRequest) => Reply)): void;
  /** From now on, requests `when` matches reach the server again, whatever was answered for them before. */
  pass(when: (r: SentRequest) => boolean): void;
}

interface RawRequest {
  method: string;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

export function clientSeam(client: S3Client): ClientSeam {
  const sent: SentRequest[] = [];
  const answers: Answer[] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      const raw = (args as { request: RawRequest }).request;
      const request: SentRequest = {
        method: raw.method,
        path: raw.path,
        query: { ...raw.query },
        headers: Object.fromEntries(Object.entries(raw.headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
        body: typeof raw.body === 'string' ? raw.body : undefined,
      };
      sent.push(request);
      const reply = answers.find((a) => a.when(request))?.reply(request);
      if (!reply) return next(args);
      const body = reply.body ?? '';
      return {
        output: undefined,
        response: {
          statusCode: reply.status,
          headers: {
            'content-length': String(Buffer.byteLength(body)),
            ...(body ? { 'content-type': 'application/xml' } : {}),
            ...reply.headers,
          },
          body: Readable.from([Buffer.from(body)]),
        },
      } as never;
    },
    { step: 'deserialize', priority: 'low', name: 'siloClientSeam' },
  );
  return {
    sent,
    answer(when, reply) {
      answers.unshift({ when, reply: typeof reply === 'function' ? reply : () => reply });
    },
    pass(when) {
      answers.unshift({ when, reply: () => undefined });
    },
  };
}

/** A request for sub-resource `name` (?retention, ?legal-hold, ?versions, ?object-lock). */
export const asks = (r: SentRequest, name: string) => name in r.query;

/** S3's XML error body. */
export const s3Error = (code: string, message: string, extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>${extra}<RequestId>4442587FB7D0A2F9</RequestId><HostId>silo-test</HostId></Error>`;

/** How AWS refuses to delete a version under retention or legal hold. */
export const AWS_LOCK_REFUSAL: Reply = {
  status: 403,
  body: s3Error('AccessDenied', 'Access Denied because object protected by object lock.'),
};

/** How MinIO refuses it. */
export const MINIO_LOCK_REFUSAL: Reply = {
  status: 400,
  body: s3Error('InvalidRequest', 'Object is WORM protected and cannot be overwritten', '<Resource>/silo/sha256</Resource>'),
};

/** The answer of GetObjectLockConfiguration for a bucket created with Object Lock. */
export const LOCK_ENABLED: Reply = {
  status: 200,
  body: '<?xml version="1.0" encoding="UTF-8"?>\n<ObjectLockConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><ObjectLockEnabled>Enabled</ObjectLockEnabled></ObjectLockConfiguration>',
};

/** ListObjectVersions' answer for `key` with these version ids, the first the latest. */
export function versionsOf(bucket: string, key: string, ids: string[]): Reply {
  const versions = ids
    .map(
      (id, i) =>
        `<Version><Key>${key}</Key><VersionId>${id}</VersionId><IsLatest>${i === 0}</IsLatest><LastModified>2026-01-0${i + 1}T00:00:00.000Z</LastModified><ETag>"e"</ETag><Size>5</Size><StorageClass>STANDARD</StorageClass></Version>`,
    )
    .join('');
  return {
    status: 200,
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucket}</Name><Prefix>${key}</Prefix><KeyMarker></KeyMarker><VersionIdMarker></VersionIdMarker><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${versions}</ListVersionsResult>`,
  };
}
