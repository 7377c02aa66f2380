// `npm run verify-export`'s memory against the export's size: two exports of a seeded workspace
// (VERIFY_ENTRIES entries, default 8,000: about 20,000 small versions; and a tenth of it), each
// checked by the script in a process of its own under /usr/bin/time -v; prints each one's peak RSS
// and their ratio (RSS counts the heap's slack too; the smallest heap each needs is the sharper
// figure: --max-old-space-size, as lib/silo/export/verify-memory.slow.test.ts does).
// Run: npx tsx bench/verify-export-memory.ts
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { auditKeyOf } from '../lib/events/signing-key';
import { seededExport } from '../lib/testing/seeded-export';
import { readExportZip } from '../lib/silo/export/zip-structure';
import { testWorld } from '../lib/testing/database';

const ENTRIES = Number(process.env.VERIFY_ENTRIES ?? 8000);
const key = auditKeyOf(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'silo-verify-memory-'));
  try {
    const rows: { entries: number; members: number; mb: number; out: string }[] = [];
    for (const entries of [Math.round(ENTRIES / 10), ENTRIES]) {
      const w = await testWorld({ database: 'pglite' });
      const file = path.join(dir, `${entries}.zip`);
      try {
        await seededExport(w, { entries, key, file });
      } finally {
        await w.close();
      }
      const members = (await readExportZip(file)).length;
      const r = execFileSync('sh', ['-c', `/usr/bin/time -v node --import tsx scripts/verify-export.ts '${file}' 2>&1`], {
        encoding: 'utf8',
      });
      const mb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r)?.[1] ?? Number.NaN) / 1024;
      rows.push({ entries, members, mb, out: r.split('\n')[0] });
      console.log(`${entries} entries, ${members} members: verify-export peak RSS ${mb.toFixed(1)} MB — ${r.split('\n')[0]}`);
    }
    const [small, large] = rows;
    console.log(
      `ratio ${(large.mb / small.mb).toFixed(2)} for ${(large.members / small.members).toFixed(1)}× the members; per extra member ${(((large.mb - small.mb) * 1024 * 1024) / (large.members - small.members)).toFixed(0)} bytes`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
