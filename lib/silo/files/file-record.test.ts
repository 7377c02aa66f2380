// The record a new file or version is answered with (createdFileRecord: cached history spliced
// into its JSON text, or an object) is byte for byte what GET answers for it (fileRecord), after
// replacements, edits, deletes and restores of earlier versions; PUT {url} shows the full record
// only to a scope that reaches the file.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import type { File } from '../../db/generated/client';
import { must } from '../../must';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, type TestWorld } from '../../testing/database';
import { SMALL_BLOB_LIMITS, parseFileInput as parse, sha256 } from '../../testing/files';
import { createTestEntry, withEntryWorld } from '../../testing/owner';
import { createFile } from './create-file';
import { deleteFile } from './delete-file';
import { createdFileRecord, fileAtUrlRecord, fileRecord, type CreatedRecord } from './file-record';
import { restoreFile } from './restore-file';
import { updateFile } from './update-file';

const signer = { base: 'http://silo.test', secret: 'test-secret' };
const LIMIT = SMALL_BLOB_LIMITS.smallBlobBytes;
/** Who makes the versions: each version's created_by. */
const AUTHOR = { type: 'user' as const, id: randomUUID(), name: 'Ana "Q" Ferreira' };

/** The answer as the HTTP layer writes it: the text's pieces in order, or the object's JSON. */
const written = (a: CreatedRecord) => ('text' in a ? Buffer.concat(a.text).toString() : JSON.stringify(a.record));

describe.each(testDatabases())('the record a file is answered with (%s)', (database) => {
  let w: TestWorld;
  let scope: Scope;
  let entryId: string;
  withEntryWorld(database, (made) => ({ w, scope, entryId } = made));

  const c = () => ({ db: w.db.prisma, signer });
  const create = (input: object) =>
    createFile({ db: w.db.prisma, store: w.store, scope, entryId, input: parse(input), limits: SMALL_BLOB_LIMITS, actor: AUTHOR });
  const inline = (key: string, bytes: Buffer, extra: object = {}) =>
    create({ name: `${key}.xml`, key, data: bytes.toString('base64'), meta: { z: '1', a: '2' }, ...extra });
  const getAnswer = async (f: File) =>
    JSON.stringify(await fileRecord(c(), await w.db.prisma.file.findUniqueOrThrow({ where: { id: f.id } })));

  it('of a small inline version is its history as text, the same bytes as GET answers, after any change to earlier versions', async () => {
    const made: File[] = [];
    for (let n = 0; n < 12; n++) {
      const created = await inline('history', Buffer.from(`<v n="${n}"/>`), { desc: `v${n} "quoted" \u00e9` });
      const answer = await createdFileRecord(c(), created);
      expect('text' in answer, 'a small inline version comes as text').toBe(true);
      expect(written(answer)).toBe(await getAnswer(created.file));
      made.push(created.file);
      // Earlier versions edited, deleted, restored between replacements: the next answer still matches.
      if (n === 3) await updateFile({ actor: TEST_ACTOR, db: w.db.prisma, file: made[1], patch: { desc: 'edited' } });
      if (n === 6) await deleteFile({ actor: TEST_ACTOR, db: w.db.prisma, store: w.store, file: made[2] });
      if (n === 8) {
        const restored = await restoreFile({ db: w.db.prisma, store: w.store, version: made[0], actor: AUTHOR });
        expect(written(await createdFileRecord(c(), { file: restored }))).toBe(await getAnswer(restored));
      }
    }
    const last = JSON.parse(await getAnswer(made[11]));
    expect(last.previous.map((p: { version: number }) => p.version)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 2, 1]);
  });

  it('of a larger inline version, a placeholder and a repeated request is the object GET answers', async () => {
    const large = await inline('large', randomBytes(LIMIT + 1));
    await inline('large', Buffer.from('<small/>'));
    const again = await inline('large', randomBytes(LIMIT + 1));
    expect(again.made).toBeUndefined();
    const answer = await createdFileRecord(c(), again);
    expect('record' in answer && answer.record.previous?.length).toBe(2);
    expect(written(answer)).toBe(await getAnswer(again.file));
    expect(written(await createdFileRecord(c(), large))).toBe(await getAnswer(large.file));

    const bytes = Buffer.from('<later/>');
    const placeholder = await create({ name: 'p.xml', key: 'large', mime: 'application/xml', size: bytes.length, sha256: sha256(bytes) });
    const record = await createdFileRecord(c(), placeholder);
    expect(written(record)).toBe(await getAnswer(placeholder.file));
    expect('record' in record && record.record.previous?.map((p) => p.version)).toEqual([3, 2, 1]);
  });

  it('of an e-invoice carries its facts, in their documented order, the same bytes as GET answers', async () => {
    const ubl = readFileSync(path.join(__dirname, '../../invoices/samples/xrechnung-ubl-invoice.xml'));
    for (const bytes of [ubl, Buffer.concat([ubl, Buffer.from(`<!--${'x'.repeat(LIMIT)}-->`)])]) {
      const created = await inline('invoice', bytes, { mime: 'application/xml' });
      const answer = written(await createdFileRecord(c(), created));
      expect(answer).toBe(await getAnswer(created.file));
      expect(Object.keys(JSON.parse(answer).facts)).toEqual([
        'syntax',
        'type',
        'number',
        'issue_date',
        'due_date',
        'currency',
        'seller',
        'buyer',
        'net',
        'tax',
        'payable',
      ]);
    }
  });

  it('at a url: the full record to a scope that reaches the file, what GET {url} tells to anyone else', async () => {
    const { file } = await inline('url', Buffer.from('<u/>'));
    expect(await fileAtUrlRecord(c(), file, scope)).toEqual(await fileRecord(c(), file));
    const other = await createTestEntry(w.db.prisma, 'Other');
    for (const s of [undefined, other.scope, { ...scope, sandbox: true }])
      expect(await fileAtUrlRecord(c(), file, s)).toEqual({
        id: file.id,
        name: 'url.xml',
        mime: 'application/octet-stream',
        size: 4,
        hash: must(file.hash, 'hash'),
        url: expect.stringContaining(file.id),
        stored: true,
      });
  });
});
