// Every member of an export is a path unzip can create (member-names.ts): each segment at most 255
// bytes of UTF-8, a long name cut with its extension kept, the name as stored in files.csv. Checked
// by cutting names of 255 characters of 1, 2, 3 and 4 bytes, then on both databases by the real
// `unzip` extracting an export of such versions, every member's bytes compared.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../db/scope';
import { TEST_ACTOR } from '../../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../../testing/database';
import { parseFileInput as parse, SMALL_BLOB_LIMITS } from '../../testing/files';
import { createTestOwner } from '../../testing/owner';
import { createEntry } from '../create-entry';
import { createFile } from '../files/create-file';
import { parseCsv } from './csv';
import { exportTo, key, period } from '../../testing/export-fixtures';
import { SEGMENT_BYTES, versionSegment } from './member-names';
import { verifyExport } from './verify-export';

const UNZIP = '/usr/bin/unzip';
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** Names of 255 characters (the longest a file may have) of every UTF-8 width, and a few edges. */
const NAMES = [
  `${'a'.repeat(251)}.xml`,
  `${'é'.repeat(251)}.pdf`,
  `${'€'.repeat(255)}`,
  `${'😀'.repeat(250)}.json`,
  `${'x'.repeat(200)}.${'y'.repeat(54)}`, // an "extension" too long to keep
  `Rechnung ${'ü'.repeat(120)} / Kopie: 1?.xml`,
  'short.xml',
];

describe('versionSegment', () => {
  it('keeps a name that fits as it was', () => {
    expect(versionSegment(3, 'inv v2.xml')).toBe('v3-inv v2.xml');
    expect(versionSegment(1, 'scan/page:1?.pdf')).toBe('v1-scan_page_1_.pdf');
  });

  it('cuts a longer one to 255 bytes of UTF-8, whole characters, its extension kept', () => {
    for (const name of NAMES) {
      const s = versionSegment(12, name);
      expect(bytes(s), name).toBeLessThanOrEqual(SEGMENT_BYTES);
      expect(s.startsWith('v12-')).toBe(true);
      expect(s).not.toContain('\uFFFD');
      expect(Buffer.from(s, 'utf8').toString('utf8')).toBe(s);
    }
    expect(versionSegment(1, NAMES[0])).toMatch(/^v1-a+~\.xml$/);
    expect(versionSegment(1, NAMES[1])).toMatch(/^v1-é+~\.pdf$/);
    expect(versionSegment(1, NAMES[3])).toMatch(/^v1-(😀)+~\.json$/);
    expect(versionSegment(1, NAMES[4])).toMatch(/^v1-x+\.y+~$/);
    expect(bytes(versionSegment(1, NAMES[1]))).toBeGreaterThan(SEGMENT_BYTES - 3); // cut no shorter than it must be
  });
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'silo-export-names-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each(testDatabases())('long names in an export on %s', (database) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await testWorld({ database });
  });
  afterAll(() => w?.close());

  it('unzip extracts every member; files.csv names each with the name as stored', async () => {
    const owner = await createTestOwner(w.db.prisma, `names-${database}`);
    const chain = { ownerId: owner.id, sandbox: false };
    const scope: Scope = { owners: [owner.id], sandbox: false };
    const entryId = (await createEntry({ actor: TEST_ACTOR, db: w.db.prisma, target: chain, input: { folder: '', name: 'e', meta: {} } }))
      .entry.id;
    for (const [i, name] of NAMES.entries())
      await createFile({
        db: w.db.prisma,
        store: w.store,
        scope,
        entryId,
        input: parse({ name, key: `k${i}`, data: Buffer.from(`bytes of ${i}`).toString('base64') }),
        limits: SMALL_BLOB_LIMITS,
      });
    const zipFile = path.join(dir, `${database}.zip`);
    await exportTo(zipFile, { db: w.db.prisma, store: w.store, chain, period, key, actor: TEST_ACTOR, location: 'x' });
    await verifyExport(zipFile, { publicKey: key.publicKey });

    const out = path.join(dir, database);
    execFileSync(UNZIP, ['-q', '-o', zipFile, '-d', out]); // throws on any member it cannot create
    const rows = parseCsv((await readFile(path.join(out, 'files.csv'), 'utf8')).replace(/^\uFEFF/, ''));
    const col = (c: string) => rows[0].indexOf(c);
    const listed = rows.slice(1).map((r) => ({ name: r[col('name')], member: r[col('path')], key: r[col('file_key')] }));
    expect(listed.map((r) => r.name).sort()).toEqual([...NAMES].sort());
    for (const r of listed) {
      for (const segment of r.member.split('/')) expect(bytes(segment), r.member).toBeLessThanOrEqual(SEGMENT_BYTES);
      const file = path.join(out, ...r.member.split('/'));
      expect(existsSync(file), r.member).toBe(true);
      expect((await readFile(file, 'utf8')).toString()).toBe(`bytes of ${r.key.slice(1)}`);
    }
  });
});
