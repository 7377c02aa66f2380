// Reading requests: JSON bodies under a size limit counted while streaming, queries, params.
import type { z } from 'zod';
import { ApiError } from '../errors';
import { NOT_STORABLE, isUuid, storable } from '../schemas/common';

/** Turns zod issues into the contract's `fields` map and a sentence. */
function validationError(issues: readonly z.core.$ZodIssue[]): ApiError {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || 'body';
    fields[field] ??= friendly(issue);
  }
  const [first] = Object.entries(fields);
  return new ApiError('validation', `${first[0]} ${first[1]}`, { fields });
}

function friendly(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return `must be ${article(issue.expected)}`;
  if (issue.code === 'invalid_value' && 'values' in issue) return `must be one of ${issue.values.join(', ')}`;
  if (issue.code === 'unrecognized_keys') return `has unknown fields: ${issue.keys.join(', ')}`;
  return issue.message;
}

const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);

function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error.issues);
  return r.data;
}

function isJsonType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Reads a body, refusing (413) as soon as it passes `maxBytes`. Leaving the loop early ends a web
 * stream (cancelled); a Node request's iterator must be made not to destroy it, so the 413 can
 * still be sent (node-route.ts reads and drops the rest).
 */
async function readLimited(body: AsyncIterable<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new ApiError('too_large', `The request body is larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return chunks.length === 1 ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength) : Buffer.concat(chunks);
}

/** A request body with the headers that describe it: a web Request's, or a Node request's (node-adapter.ts). */
export interface JsonSource {
  contentType: string | null;
  contentLength: string | null;
  body: AsyncIterable<Uint8Array> | null;
}

const webSource = (req: Request): JsonSource => ({
  contentType: req.headers.get('content-type'),
  contentLength: req.headers.get('content-length'),
  body: req.body as AsyncIterable<Uint8Array> | null,
});

/** A JSON endpoint's body: 415 for another type, 413 past the limit, 400 for bad JSON, 422 for bad fields. */
export async function readJson<S extends z.ZodType>(req: Request | JsonSource, schema: S, maxBytes: number): Promise<z.infer<S>> {
  const source = req instanceof Request ? webSource(req) : req;
  if (!isJsonType(source.contentType)) throw new ApiError('unsupported_media_type', 'Send a JSON body with Content-Type: application/json');
  const declared = Number(source.contentLength ?? NaN);
  if (declared > maxBytes) throw new ApiError('too_large', `The request body is larger than ${maxBytes} bytes`);
  const raw = await readLimited(source.body, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError('bad_json', 'The request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ApiError('bad_request', 'The request body must be a JSON object');
  assertStorableJson(value);
  return parseWith(schema, value);
}

/**
 * Every string of a body, keys included, must be one PostgreSQL can store unchanged (no NUL, no
 * unpaired surrogate), whatever field it lands in. `__proto__` is refused as a key: parsers drop
 * it silently, and a stored value must be the one sent. Iterative: JSON nests deeper than the stack.
 */
export function assertStorableJson(root: unknown): void {
  const todo: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  const fail = (path: string, reason: string) => {
    throw new ApiError('validation', `${path || 'body'} ${reason}`, { fields: { [path || 'body']: reason } });
  };
  for (let next = todo.pop(); next; next = todo.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (!storable(value)) fail(path, NOT_STORABLE);
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) todo.push({ value: v, path: join(path, String(i)) });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (!storable(k)) fail(path, `keys ${NOT_STORABLE}`);
        if (k === '__proto__') fail(path, 'must not have the key __proto__');
        todo.push({ value: v, path: join(path, k) });
      }
    }
  }
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

export function readQuery<S extends z.ZodType>(url: string | URL, schema: S): z.infer<S> {
  const params = new URL(url).searchParams;
  const value: Record<string, string> = {};
  for (const [k, v] of params) value[k] = v;
  assertStorableJson(value);
  return parseWith(schema, value);
}

/** A path id that is not a UUID names nothing: 404, as for any unknown id. */
export function pathId(value: string | undefined, what = 'Not found'): string {
  if (!value || !isUuid(value)) throw new ApiError('not_found', what);
  return value.toLowerCase();
}
