// Issue 20, item 1: every answer reaches a client that asks for compression (Accept-Encoding:
// gzip, br), whatever its size. The largest answers: a replacement with a long history (its
// `previous` written in pieces: node-adapter.ts sendJsonText), a full page of entries, a file list,
// an entry with its attachments. Each request gives up after 15 s: on the old code the replacement
// never came (a corked response starved Next's gzip stream).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { bearer, expect, test } from '../fixtures';
import { b64, createEntry } from './helpers';

interface Decoded {
  status: number;
  encoding: string | undefined;
  json: unknown;
}

/** A request over node:http asking for compression; the body decoded by what Content-Encoding says. */
function compressed(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<Decoded> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent: false,
        timeout: 15_000,
        headers: {
          ...headers,
          'Accept-Encoding': 'gzip, br',
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const text =
            encoding === 'gzip' ? zlib.gunzipSync(raw) : encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding ? undefined : raw;
          if (!text) return reject(new Error(`unexpected Content-Encoding ${encoding}`));
          resolve({ status: res.statusCode ?? 0, encoding, json: JSON.parse(text.toString('utf8')) });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within 15 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** 1,024 characters that do not compress: each version adds about 1 KiB to the answer, gzipped too. */
const incompressible = () => randomBytes(768).toString('base64');

test.describe('answers to clients asking for gzip or br', () => {
  test.setTimeout(180_000);

  test('a replacement with a long history, a full page of entries, a file list and an entry arrive whole', async ({
    request,
    newOwner,
    server,
  }) => {
    const { liveKey } = await newOwner();
    const auth = bearer(liveKey);
    const entry = await createEntry(request, liveKey, { name: 'long history' });
    const files = `${server.url}/silo/v1/entries/${entry.id}/files`;
    // 60 versions of one file, each with 1 KiB of incompressible desc: `previous` ≈ 80 KiB gzipped.
    // The setup asks for no compression (Playwright's own requests ask for gzip): only the requests
    // under test depend on it.
    const plain = { headers: { ...auth, 'Accept-Encoding': 'identity' }, timeout: 15_000 };
    for (let i = 0; i < 60; i++) {
      const made = await request.post(files, { ...plain, data: { name: 'a.txt', data: b64(`v${i}`), desc: incompressible() } });
      expect(made.status()).toBe(201);
    }
    for (let i = 0; i < 3; i++) {
      const made = await compressed(files, 'POST', auth, { name: 'a.txt', data: b64(`gz${i}`), desc: incompressible() });
      expect(made.status).toBe(201);
      expect(made.encoding).toMatch(/^(gzip|br)$/);
      const record = made.json as { previous: { desc: string }[] };
      expect(record.previous).toHaveLength(60 + i);
      expect(record.previous.every((p) => p.desc.length === 1024)).toBe(true);
    }

    const list = await compressed(files, 'GET', auth);
    expect(list.status).toBe(200);
    expect((list.json as { list: { previous: unknown[] }[] }).list[0].previous).toHaveLength(62);

    const one = await compressed(`${server.url}/silo/v1/entries/${entry.id}`, 'GET', auth);
    expect(one.status).toBe(200);
    expect((one.json as { attachments: unknown[] }).attachments).toHaveLength(1);

    // a full page (100) of entries with full meta (50 keys of 1,024 characters)
    const meta = Object.fromEntries(Array.from({ length: 50 }, (_, k) => [`k${k}`, incompressible()]));
    for (let i = 0; i < 100; i++)
      expect((await request.post('/silo/v1/entries', { ...plain, data: { name: `e${i}`, meta } })).status()).toBe(201);
    const page = await compressed(`${server.url}/silo/v1/entries?limit=100`, 'GET', auth);
    expect(page.status).toBe(200);
    expect((page.json as { list: unknown[] }).list).toHaveLength(100);
  });
});
