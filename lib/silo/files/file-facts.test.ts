// Invoice facts are read whenever a version is stored (inline small or large, an upload in one
// request or resumed, an inline completion, a restore), kept on its row and shown on the file and
// its entry; other bytes have none.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import { readInvoiceFacts } from '../../invoices/read-facts';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { SMALL_BLOB_LIMITS, TEST_FILE_LIMITS, parseFileInput as parse, sha256 } from '../../testing/files';
import { createTestEntry } from '../../testing/owner';
import { countFiles, factsOfCurrent } from '../entry-rows';
import { listEntries } from '../list-entries';
import { createFile } from './create-file';
import { fileRecord } from './file-record';
import { listFiles } from './list-files';
import { receiveUpload } from './receive-upload';
import { restoreFile } from './restore-file';

const sample = (name: string) => readFileSync(path.join(__dirname, '../../invoices/samples', name));
const UBL = sample('xrechnung-ubl-invoice.xml');
const CII = sample('factur-x-cii-invoice.xml');
const CREDIT = sample('xrechnung-cii-credit-note.xml');
const signer = { base: 'http://silo.test', secret: 'test-secret' };

let w: TestWorld;
let scope: Scope;
let entryId: string;

const inline = (name: string, bytes: Buffer, limits = SMALL_BLOB_LIMITS, mime = 'application/xml') =>
  createFile({
    db: w.db.prisma,
    store: w.store,
    scope,
    entryId,
    input: parse({ name, mime, data: bytes.toString('base64') }),
    limits,
    actor: null,
  });

const placeholder = (name: string, bytes: Buffer, mime = 'application/xml') =>
  createFile({
    db: w.db.prisma,
    store: w.store,
    scope,
    entryId,
    input: parse({ name, mime, size: bytes.length, sha256: sha256(bytes) }),
    limits: TEST_FILE_LIMITS,
    actor: null,
  });

const row = (id: string) => w.db.prisma.file.findUniqueOrThrow({ where: { id } });

describe.each(testDatabases())('invoice facts kept (%s)', (database) => {
  beforeAll(async () => {
    w = await testWorld({ database });
    ({ scope, entryId } = await createTestEntry(w.db.prisma));
  });
  afterAll(() => w.close());

  describe('facts of a stored version', () => {
    it('inline, kept in the database: on the row, the typed columns and the record', async () => {
      const made = await inline('ubl.xml', UBL);
      const facts = readInvoiceFacts(UBL);
      expect(facts).not.toBeNull();
      expect(made.file.facts).toEqual(facts);
      const r = await row(made.file.id);
      expect(r.facts).toEqual(facts);
      expect([r.factSellerVat, r.factBuyerVat, r.factNumber, r.factIssueDate?.toISOString(), r.factCurrency]).toEqual([
        'DE123456789',
        'DE987654321',
        'RE-2024-00042',
        '2024-03-15T00:00:00.000Z',
        'EUR',
      ]);
      expect((await fileRecord({ db: w.db.prisma, signer }, r)).facts).toEqual(facts);
    });

    it('inline, in the blob store', async () => {
      const made = await inline('cii-large.xml', CII, TEST_FILE_LIMITS);
      expect((await row(made.file.id)).facts).toEqual(readInvoiceFacts(CII));
    });

    it('uploaded in one request: read from the bytes as they pass', async () => {
      const p = await placeholder('cii.xml', CII);
      expect(p.file.facts).toBeNull();
      const chunks = [CII.subarray(0, 100), CII.subarray(100, 1000), CII.subarray(1000)];
      const done = await receiveUpload({ db: w.db.prisma, store: w.store, file: p.file, source: chunks, contentRange: null });
      expect(done.kind === 'stored' && done.file.facts).toEqual(readInvoiceFacts(CII));
      expect((await row(p.file.id)).factSellerVat).toBe('FR11999999998');
    });

    it('two uploads of one placeholder at once: one stores it with its facts, the other finds it stored', async () => {
      const p = await placeholder('race.xml', UBL);
      const send = () => receiveUpload({ db: w.db.prisma, store: w.store, file: p.file, source: [UBL], contentRange: null });
      const outcomes = await Promise.allSettled([send(), send()]);
      expect(outcomes.some((o) => o.status === 'fulfilled' && o.value.kind === 'stored')).toBe(true);
      for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ key: 'upload_in_progress' });
      expect((await row(p.file.id)).facts).toEqual(readInvoiceFacts(UBL));
    });

    it('uploaded in two requests: read from the store once stored', async () => {
      const p = await placeholder('credit.xml', CREDIT);
      const cut = 700;
      const size = CREDIT.length;
      const first = await receiveUpload({
        db: w.db.prisma,
        store: w.store,
        file: p.file,
        source: [CREDIT.subarray(0, cut)],
        contentRange: `bytes 0-${cut - 1}/${size}`,
      });
      expect(first.kind).toBe('partial');
      const done = await receiveUpload({
        db: w.db.prisma,
        store: w.store,
        file: p.file,
        source: [CREDIT.subarray(cut)],
        contentRange: `bytes ${cut}-${size - 1}/${size}`,
      });
      expect(done.kind === 'stored' && done.file.facts).toMatchObject({ type: 'credit_note', number: 'GS-0001' });
      expect((await row(p.file.id)).factNumber).toBe('GS-0001');
    });

    it('a placeholder completed by its create repeated with the bytes inline', async () => {
      const bytes = Buffer.from(UBL.toString().replace('RE-2024-00042', 'RE-2024-00043'));
      const input = { name: 'again.xml', mime: 'application/xml', size: bytes.length, sha256: sha256(bytes) };
      const id = crypto.randomUUID();
      const make = (extra: object) =>
        createFile({
          db: w.db.prisma,
          store: w.store,
          scope,
          entryId,
          id,
          input: parse({ ...input, ...extra }),
          limits: TEST_FILE_LIMITS,
          actor: null,
        });
      await make({});
      const done = await make({ data: bytes.toString('base64') });
      expect((await row(done.file.id)).factNumber).toBe('RE-2024-00043');
    });

    it('a restore keeps its version’s facts', async () => {
      const v1 = await inline('restore.xml', CII);
      await inline('restore.xml', Buffer.from('<not-an-invoice/>'));
      const v3 = await restoreFile({ db: w.db.prisma, store: w.store, version: await row(v1.file.id), actor: null });
      expect(v3.facts).toEqual(readInvoiceFacts(CII));
      expect(v3.factSellerVat).toBe('FR11999999998');
    });

    it('other bytes have none, whatever their media type', async () => {
      for (const [bytes, mime] of [
        [Buffer.from('%PDF-1.7\n%…'), 'application/pdf'],
        [Buffer.from('<html><body>invoice</body></html>'), 'text/html'],
        [Buffer.from('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>'), 'application/xml'],
        [Buffer.from('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">'), 'application/xml'],
      ] as const) {
        const made = await inline(`other-${mime.replace('/', '-')}.bin`, bytes, SMALL_BLOB_LIMITS, mime);
        expect((await row(made.file.id)).facts).toBeNull();
      }
    });
  });

  describe("an entry's facts", () => {
    it('are those of its current version stored last that has facts, alike in the list, one entry and the record of a PUT or PATCH (countFiles)', async () => {
      const ownerId = (scope.owners as string[])[0];
      const id = crypto.randomUUID();
      await w.db.prisma.entry.create({ data: { id, ownerId, sandbox: false, name: 'with an invoice' } });
      const add = (name: string, bytes: Buffer) =>
        createFile({
          db: w.db.prisma,
          store: w.store,
          scope,
          entryId: id,
          input: parse({ name, mime: 'application/xml', data: bytes.toString('base64') }),
          limits: SMALL_BLOB_LIMITS,
          actor: null,
        });
      expect((await countFiles(w.db.prisma, id)).facts).toBeNull();
      await add('invoice.xml', UBL);
      await add('invoice.pdf', Buffer.from('%PDF-1.7'));
      expect((await countFiles(w.db.prisma, id)).facts).toMatchObject({ number: 'RE-2024-00042' });
      await add('credit.xml', CREDIT);
      const shown = await countFiles(w.db.prisma, id);
      expect(shown).toMatchObject({ fileCount: 3, facts: { number: 'GS-0001' } });
      expect(factsOfCurrent(await listFiles(w.db.prisma, id))).toEqual(shown.facts);
      const page = await listEntries({ db: w.db.prisma, target: { ownerId, sandbox: false }, query: { limit: 100 } as never });
      expect(page.list.find((e) => e.id === id)?.facts).toEqual(shown.facts);
      // The credit note replaced by other bytes: the invoice's facts again.
      await add('credit.xml', Buffer.from('<x/>'));
      expect((await countFiles(w.db.prisma, id)).facts).toMatchObject({ number: 'RE-2024-00042' });
    });
  });
});
