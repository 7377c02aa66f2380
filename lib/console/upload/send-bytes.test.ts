// PUT {url} as the browser sends it, with XMLHttpRequest faked at the global boundary: a resumed
// upload sends only the rest of the file and says where it starts (Content-Range).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionLost, sendBytes } from './send-bytes';

class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: Blob | undefined;
  status = 0;
  responseText = '';
  responseHeaders: Record<string, string> = {};
  upload: { onprogress?: (e: { loaded: number }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  ontimeout?: () => void;
  onabort?: () => void;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: Blob) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  answer(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseHeaders = headers;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const file = new File(['0123456789'], 'a.txt', { type: 'text/plain' });
const send = (offset: number, onProgress = (_: number) => {}, signal = new AbortController().signal) =>
  sendBytes({ url: '/upload/1', file, mime: 'text/plain', offset, onProgress, signal });

describe('sendBytes', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the whole file without Content-Range from offset 0', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const done = send(0);
    const xhr = FakeXhr.last;
    expect(xhr).toMatchObject({ method: 'PUT', url: '/upload/1', headers: { 'Content-Type': 'text/plain' } });
    expect(xhr.headers).not.toHaveProperty('Content-Range');
    expect(await xhr.body!.text()).toBe('0123456789');
    xhr.answer(200, { id: 'f1', stored: true });
    expect(await done).toEqual({ id: 'f1', stored: true });
  });

  it('resumes with the rest of the bytes and a Content-Range saying where they start', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const progress: number[] = [];
    const done = send(4, (n) => progress.push(n));
    const xhr = FakeXhr.last;
    expect(xhr.headers['Content-Range']).toBe('bytes 4-9/10');
    expect(await xhr.body!.text()).toBe('456789');
    xhr.upload.onprogress!({ loaded: 3 });
    expect(progress).toEqual([7]); // totals count the bytes the server already held
    xhr.answer(201, { id: 'f1' });
    await done;
  });

  it("rejects with the contract's message, a lost connection, or an abort", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const refused = send(0);
    FakeXhr.last.answer(409, { key: 'hash_mismatch', message: 'The bytes do not match sha256' });
    await expect(refused).rejects.toMatchObject({ status: 409, key: 'hash_mismatch', message: 'The bytes do not match sha256' });

    // a busy answer carries the seconds it asks to wait (an HTTP date is not kept)
    const busy = send(0);
    FakeXhr.last.answer(503, { key: 'busy', message: 'The server is busy' }, { 'retry-after': '2' });
    await expect(busy).rejects.toMatchObject({ status: 503, key: 'busy', retryAfter: 2 });
    const dated = send(0);
    FakeXhr.last.answer(503, { key: 'busy', message: 'The server is busy' }, { 'retry-after': 'Fri, 27 Nov 2026 23:59:00 GMT' });
    await expect(dated).rejects.toMatchObject({ status: 503, retryAfter: undefined });

    const lost = send(0);
    FakeXhr.last.onerror!();
    await expect(lost).rejects.toBeInstanceOf(ConnectionLost);

    const ctrl = new AbortController();
    const cancelled = send(0, undefined, ctrl.signal);
    ctrl.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
  });
});
