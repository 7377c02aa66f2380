// The console's one way to call the API: same origin, session cookie, and failures thrown with
// the contract's `message` so toasts and forms can show it as it is.
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly key: string,
    readonly fields?: Record<string, string>,
    /** seconds the server asked to wait before trying again (Retry-After), when it said */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** the workspace a collection call works in (X-Silo-Owner) */
  owner?: string;
  sandbox?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export async function api<T>(path: string, opts: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (opts.owner) headers['X-Silo-Owner'] = opts.owner;
  if (opts.sandbox) headers['X-Silo-Sandbox'] = 'true';
  let res: Response;
  try {
    res = await fetch(path, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiFailure('The server could not be reached; check your connection and try again', 0, 'network');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  const body = text ? safeJson(text) : undefined;
  if (!res.ok) throw failure(res.status, body, res.headers.get('Retry-After'));
  return body as T;
}

/** The contract's error body (or whatever came) as an ApiFailure carrying its `message`. */
export function failure(status: number, body: unknown, retryAfter?: string | null): ApiFailure {
  const e = (body ?? undefined) as { message?: string; key?: string; fields?: Record<string, string> } | undefined;
  // Retry-After in seconds (the API's form); an HTTP date or anything else is not kept
  const wait = retryAfter && /^\d{1,6}$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  return new ApiFailure(e?.message ?? `The server answered ${status}`, status, e?.key ?? 'unknown', e?.fields, wait);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The contract's per-field messages of a failed request, for the form's fields. */
export const fieldErrors = (err: unknown) => (err instanceof ApiFailure ? err.fields : undefined);
