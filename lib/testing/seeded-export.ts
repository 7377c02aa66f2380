// An auditor's export of a seeded workspace (seed-workspace.ts: `entries` entries over 2025, two or
// three small versions each) written to a file: what verify-export's memory is measured on
// (lib/silo/export/verify-memory.slow.test.ts, bench/verify-export-memory.ts). Imports no test runner.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Database } from '../db/client';
import type { AuditKey } from '../events/signing-key';
import { createExport } from '../silo/export/create-export';
import type { BlobStore } from '../storage/blob-store';
import { TEST_ACTOR } from './actor';
import { seedWorkspace } from './seed-workspace';

export async function seededExport(w: { db: Database; store: BlobStore }, o: { entries: number; key: AuditKey; file: string }) {
  const seeded = await seedWorkspace(w.db, { entries: o.entries, end: new Date('2025-12-31T12:00:00Z'), years: 1, key: o.key });
  const { zip, plan } = await createExport({
    db: w.db.prisma,
    store: w.store,
    chain: { ownerId: seeded.owner_id, sandbox: false },
    period: { from: '2025-01-01', to: '2025-12-31' },
    key: o.key,
    actor: TEST_ACTOR,
    location: 'x',
  });
  await pipeline(zip.stream, createWriteStream(o.file));
  return plan;
}
