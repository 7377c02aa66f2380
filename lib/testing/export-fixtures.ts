// Shared by the export's tests (lib/silo/export/*.test.ts): an audit key, today's period, and a
// workspace with a few versions to export.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/client';
import type { Scope } from '../db/scope';
import { loadedAuditKey } from '../events/signing-key';
import type { BlobStore } from '../storage/blob-store';
import { TEST_ACTOR } from './actor';
import { SMALL_BLOB_LIMITS, parseFileInput as parse } from './files';
import { createTestOwner } from './owner';
import { createEntry } from '../silo/create-entry';
import { createFile } from '../silo/files/create-file';
import { createExport } from '../silo/export/create-export';

export const key = loadedAuditKey(); // the key that signs the records (lib/testing/audit-key-setup.ts)
export const today = new Date().toISOString().slice(0, 10);
export const period = { from: today, to: today };

/** A workspace with a few versions: small (database) and large (store), a replacement, awkward names. */
export async function fillWorkspace(db: Db, store: BlobStore) {
  const owner = await createTestOwner(db, 'Müller & Söhne <GmbH>');
  const target = { ownerId: owner.id, sandbox: false };
  const scope: Scope = { owners: [owner.id], sandbox: false };
  const entry = async (input: object) =>
    (await createEntry({ actor: TEST_ACTOR, db, target, input: { folder: '', name: '', meta: {}, ...input } })).entry.id;
  const e1 = await entry({ key: 'INV-1', folder: 'sales/2026', name: 'Rechnung "1", Köln', meta: { customer: '=HYPERLINK("x")' } });
  const e2 = await entry({ key: '+49 line', name: 'two\nlines' });
  const add = (entryId: string, input: object) =>
    createFile({ db, store, scope, entryId, input: parse(input), limits: SMALL_BLOB_LIMITS }).then((r) => r.file);
  const big = randomBytes(300 * 1024); // over SMALL_BLOB_MAX_BYTES: in the store
  const files = [
    await add(e1, { name: 'inv.xml', category: 'format', key: 'xml', data: Buffer.from('<Invoice>1</Invoice>').toString('base64') }),
    await add(e1, { name: 'inv v2.xml', category: 'format', key: 'xml', data: Buffer.from('<Invoice>1b</Invoice>').toString('base64') }),
    await add(e1, { name: 'scan/page:1?.pdf', mime: 'application/pdf', data: big.toString('base64') }),
    await add(e2, { name: '@SUM(A1).txt', mime: 'text/plain', data: Buffer.from('-1+1').toString('base64') }),
    await add(e2, { name: 'empty.bin', data: '' }),
  ];
  return { owner, chain: target, files, big };
}

export async function exportTo(file: string, o: Parameters<typeof createExport>[0]) {
  const { zip, size, plan } = await createExport(o);
  await pipeline(zip.stream, createWriteStream(file));
  return { size, plan };
}
