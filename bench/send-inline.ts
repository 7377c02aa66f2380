// The benchmarks' archive sent to a server: files `0.bin` … `${count - 1}.bin` of `dir`, each POSTed
// inline to one entry by curl (which reads each JSON body from a file, so no body is held here).
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function sendInline(o: { url: string; authorization: string; entryId: string; dir: string; count: number }) {
  const body = path.join(o.dir, '..', 'body.json');
  for (let i = 0; i < o.count; i++) {
    const data = await readFile(path.join(o.dir, `${i}.bin`));
    await writeFile(body, JSON.stringify({ name: `${i}.bin`, data: data.toString('base64') }));
    const r = await run('curl', [
      '-sS',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-H',
      `Authorization: ${o.authorization}`,
      '-H',
      'Content-Type: application/json',
      '--data-binary',
      `@${body}`,
      `${o.url}/silo/v1/entries/${o.entryId}/files`,
    ]);
    if (r.stdout !== '201') throw new Error(`file ${i}: ${r.stdout}`);
  }
  await rm(body, { force: true });
}
