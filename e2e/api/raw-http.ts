// A PUT whose body a test writes by hand — in slow pieces, half of it, or none — over node:http,
// so that tests can stall, trickle and race uploads the way real clients do.
import http from 'node:http';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the server answered, or the error that ended the exchange before any answer. */
export type Outcome = RawResponse | Error;

export interface OpenPut {
  req: http.ClientRequest;
  /** resolves once the piece is handed to the socket (false when the request is gone) */
  write(piece: Buffer): Promise<boolean>;
  end(): void;
  /** the answer, or the error that ended the request first */
  outcome: Promise<Outcome>;
  /** true once the server answered or the connection closed */
  settled(): boolean;
}

export const openPut = (url: string, headers: Record<string, string | number>) => openRequest('PUT', url, headers);

export function openRequest(method: string, url: string, headers: Record<string, string | number>): OpenPut {
  const req = http.request(url, { method, headers, agent: false });
  let done = false;
  const outcome = new Promise<Outcome>((resolve) => {
    const settle = (o: Outcome) => {
      done = true;
      resolve(o);
    };
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      const finish = () => settle({ status: res.statusCode!, headers: res.headers, body });
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    req.on('error', (e) => settle(e));
    req.on('close', () => settle(new Error('closed without an answer')));
  });
  outcome.catch(() => {});
  return {
    req,
    write: (piece) =>
      new Promise((resolve) => {
        if (req.destroyed || done) return resolve(false);
        req.write(piece, (err) => resolve(!err));
      }),
    end: () => {
      if (!req.destroyed) req.end();
    },
    outcome,
    settled: () => done,
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `bytes` in `pieces` writes with a pause between them, then ends the request. */
export async function trickle(
  url: string,
  bytes: Buffer,
  o: { pieces: number; pauseMs: number; headers?: Record<string, string> },
): Promise<Outcome> {
  const put = openPut(url, { 'Content-Length': bytes.length, 'Content-Type': 'application/octet-stream', ...o.headers });
  const step = Math.ceil(bytes.length / o.pieces);
  for (let at = 0; at < bytes.length && !put.settled(); at += step) {
    await put.write(bytes.subarray(at, at + step));
    await sleep(o.pauseMs);
  }
  put.end();
  return put.outcome;
}

/** Parses an error body (docs/api.md, Errors), failing loudly when the body is something else. */
export function errorOf(r: Outcome): { code: number; key: string; message: string } {
  if (r instanceof Error) throw new Error(`expected an answer, got ${r.message}`);
  const body = JSON.parse(r.body);
  if (body.code !== r.status || typeof body.key !== 'string' || typeof body.message !== 'string')
    throw new Error(`not a contract body: ${r.body}`);
  if (r.headers['content-type'] !== 'application/json; charset=utf-8') throw new Error(`content type ${r.headers['content-type']}`);
  return body;
}

/** The held (partial upload and scratch) copies in a test server's store. */
/** The held upload copies in a server's local store (its storageDir). */
export async function heldCopies(storageDir: string): Promise<string[]> {
  return (await readdir(path.join(storageDir, 'held')).catch(() => [] as string[])).sort();
}

/** Points a file url at the test server (the url carries the host the request came to). */
export const onServer = (url: string, serverUrl: string) => url.replace(/^https?:\/\/[^/]+/, serverUrl);
