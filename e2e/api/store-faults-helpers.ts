// Helpers for the specs that kill, restart and inspect whole servers: raw API calls by fetch
// (these servers are not the worker's), an upload left open mid-body, and `npm run fsck`.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { expect } from '../fixtures';
import type { SiloServer } from '../fixtures/server';
import { sha256 } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');

export async function call(s: SiloServer, key: string, method: string, pathname: string, body?: unknown) {
  const res = await fetch(`${s.url}${pathname}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** A workspace's live key, minted through the admin API. */
export async function ownerKey(s: SiloServer): Promise<string> {
  const res = await call(s, s.adminKey, 'POST', '/admin/v1/owners', { name: 'Faults' });
  expect(res.status).toBe(201);
  return res.body.api_keys.find((k: { sandbox: boolean }) => !k.sandbox).key;
}

export async function placeholder(s: SiloServer, key: string, entryId: string, name: string, bytes: Buffer) {
  const res = await call(s, key, 'POST', `/silo/v1/entries/${entryId}/files`, {
    name,
    mime: 'application/octet-stream',
    sha256: sha256(bytes),
    size: bytes.length,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; url: string };
}

/** A PUT to `url` announcing `total` bytes, of which it sends `first` now; the connection stays open. */
export function openUpload(url: string, total: number, first: Buffer): http.ClientRequest {
  const req = http.request(url, {
    method: 'PUT',
    headers: { 'Content-Length': String(total), 'Content-Type': 'application/octet-stream' },
  });
  req.on('error', () => {}); // the server is about to be killed under it
  req.write(first);
  return req;
}

export async function heldOffset(url: string): Promise<number> {
  const res = await fetch(url, { method: 'HEAD' });
  expect(res.status).toBe(204);
  return Number(res.headers.get('upload-offset'));
}

/** Until the server holds at least `bytes` of the upload (they are on disk). */
export async function waitHeld(url: string, bytes: number) {
  for (let i = 0; i < 300; i++) {
    if ((await heldOffset(url)) >= bytes) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server never held ${bytes} bytes of ${url}`);
}

/** PUT the rest of `bytes` from the server's held offset (an empty PUT from the end when it holds them all). */
export async function resume(url: string, bytes: Buffer) {
  const offset = await heldOffset(url);
  const res = await fetch(url, {
    method: 'PUT',
    headers: { 'Content-Range': `bytes ${offset}-*/${bytes.length}`, 'Content-Type': 'application/octet-stream' },
    body: new Uint8Array(bytes.subarray(offset)),
  });
  return { offset, status: res.status, body: await res.json() };
}

/** `npm run fsck` on this server's database and store. */
export function fsck(s: SiloServer, ...args: string[]): Promise<{ code: number | null; out: string }> {
  const { PORT: _p, ...env } = s.env;
  const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/fsck.ts', ...args], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  return new Promise((resolve) => child.once('exit', (code: number | null) => resolve({ code, out })));
}

/**
 * PUT `bytes` to `url` and resolve with the answer, even when the server answers before reading
 * the whole body and closes the connection (as it does when the store fails mid-upload).
 */
export function putRaw(
  url: string,
  bytes: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'PUT',
      headers: { 'Content-Length': String(bytes.length), 'Content-Type': 'application/octet-stream', ...headers },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', (err) => {
      if (!answered) setTimeout(() => !answered && reject(err), 2000);
    });
    req.end(bytes);
  });
}
