// `?q=` through entry_search (migration search_and_folder_counts): the triggers keep one row per
// searched name — an entry's name and key, each current version's and each placeholder's name — as
// they change, through the API and through plain SQL, so a term matches within one of them, never
// across two; and a write touches only its own rows, however many files its entry holds. On
// PGlite, and on PostgreSQL when TEST_DATABASE_URL is set; the migration's backfill on PGlite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedBefore, testId } from '../testing/migrated-before';
import { Prisma } from '../db/generated/client';
import { TEST_ACTOR } from '../testing/actor';
import { testDatabases, testWorld, type TestWorld } from '../testing/database';
import { SMALL_BLOB_LIMITS, parseFileInput as parse, sha256 } from '../testing/files';
import { createTestOwner } from '../testing/owner';
import { createEntry } from './create-entry';
import { deleteEntry } from './delete-entry';
import { createFile } from './files/create-file';
import { deleteFile } from './files/delete-file';
import { listEntries } from './list-entries';
import { updateEntry } from './update-entry';

describe.each(testDatabases())('entry search (%s)', (database) => {
  let w: TestWorld;
  let target: { ownerId: string; sandbox: boolean };
  beforeAll(async () => {
    w = await testWorld({ database });
    target = { ownerId: (await createTestOwner(w.db.prisma, 'search')).id, sandbox: false };
  });
  afterAll(() => w.close());

  const names = async (q: string) => {
    const page = await listEntries({ db: w.db.prisma, target, query: { limit: 100, q } });
    return page.list.map((e) => e.name).sort();
  };
  const file = (entryId: string, input: object) =>
    createFile({
      db: w.db.prisma,
      store: w.store,
      scope: { owners: [target.ownerId], sandbox: false },
      entryId,
      input: parse({ mime: 'application/pdf', ...input }),
      limits: SMALL_BLOB_LIMITS,
      actor: null,
    });
  const data = Buffer.from('x').toString('base64');

  /** Rows of entry_search that differ from a fresh computation of them from entries, slots and files (either way). */
  const differences = () =>
    w.db.prisma.$queryRaw<unknown[]>`
      WITH fresh AS (
        SELECT id AS source_id, 'name' AS field, id AS entry_id, name AS text FROM entries
        UNION ALL SELECT id, 'key', id, key FROM entries WHERE key IS NOT NULL
        UNION ALL SELECT ms.id, 'version', m.entry_id, m.name FROM file_slots ms JOIN files m ON m.id = ms.current_id
        UNION ALL SELECT id, 'placeholder', entry_id, name FROM files WHERE NOT stored),
      kept AS (SELECT source_id, field, entry_id, text FROM entry_search)
      SELECT 'missing' AS what, * FROM (SELECT * FROM fresh EXCEPT ALL SELECT * FROM kept) a
      UNION ALL SELECT 'stale', * FROM (SELECT * FROM kept EXCEPT ALL SELECT * FROM fresh) b`;

  it('follows names, keys, current versions and placeholders, and matches within one of them', async () => {
    const db = w.db.prisma;
    const make = async (name: string, key?: string) =>
      (await createEntry({ actor: TEST_ACTOR, db, target, input: { folder: '', name, meta: {}, ...(key ? { key } : {}) } })).entry;
    const a = await make('Alpha', 'KEY-one');
    const b = await make('Beta');
    const c = await make('Gamma');

    expect(await names('key-ONE')).toEqual(['Alpha']);
    // A new version of a slot: only the current one's name counts.
    await file(b.id, { name: 'first-scan.pdf', key: 'scan', data });
    expect(await names('first-scan')).toEqual(['Beta']);
    const second = await file(b.id, { name: 'second-scan.pdf', key: 'scan', data });
    expect(await names('first-scan')).toEqual([]);
    expect(await names('second-scan')).toEqual(['Beta']);
    // A placeholder (no bytes yet) counts; deleting the file takes its name away.
    await file(c.id, { name: 'awaited-upload.pdf', size: 1, sha256: sha256('x') });
    expect(await names('awaited-upload')).toEqual(['Gamma']);
    await deleteFile({ db, store: w.store, file: second.file, actor: null });
    expect(await names('second-scan')).toEqual([]);
    expect(await names('first-scan')).toEqual([]);
    // A PATCH of the name or key.
    await updateEntry({ actor: TEST_ACTOR, db, scope: { owners: 'all' }, id: a.id, patch: { name: 'Renamed', key: 'KEY-two' } });
    expect(await names('alpha')).toEqual([]);
    expect(await names('renamed')).toEqual(['Renamed']);
    expect(await names('key-one')).toEqual([]);
    expect(await names('key-two')).toEqual(['Renamed']);

    // Not across two fields.
    const d = await make('left', 'right');
    await file(d.id, { name: 'third', data });
    for (const q of ['left\nright', 't\nr', 'right\nthird', '\n']) expect(await names(q)).toEqual([]);
    expect(await names('Left')).toEqual(['left']);

    expect(await differences()).toEqual([]);
  });

  it('stays equal to a fresh computation through random writes by the API and by SQL', async () => {
    const db = w.db.prisma;
    let seed = 25;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const word = () => ['ledger', 'Quote', 'scan', 'contract', 'x_y', '100%', 'a\\b'][random(7)] + random(50);
    const entries: string[] = [];
    for (let step = 0; step < 120; step++) {
      const op = entries.length === 0 ? 0 : random(11);
      const entryId = entries[random(entries.length)];
      const files = entryId ? await db.file.findMany({ where: { entryId }, select: { id: true, slotId: true, stored: true } }) : [];
      if (op === 0) {
        const key = random(2) ? { key: `K-${step}-${word()}` } : {};
        const e = await createEntry({ actor: TEST_ACTOR, db, target, input: { folder: '', name: word(), meta: {}, ...key } });
        entries.push(e.entry.id);
      } else if (op <= 2) {
        // A new slot or a new version of one (the key picks the slot).
        await file(entryId, { name: `${word()}.pdf`, key: `k${random(3)}`, data });
      } else if (op === 3) {
        await file(entryId, { name: `${word()}.pdf`, key: `p${step}`, size: 1, sha256: sha256('x') });
      } else if (op === 4 && files.length) {
        const f = await db.file.findUniqueOrThrow({ where: { id: files[random(files.length)].id } });
        await deleteFile({ db, store: w.store, file: f, actor: null }).catch(() => undefined);
      } else if (op === 5) {
        const patch = random(2) ? { name: word() } : { key: random(2) ? null : `K-${step}` };
        await updateEntry({ actor: TEST_ACTOR, db, scope: { owners: 'all' }, id: entryId, patch });
      } else if (op === 6 && files.length) {
        // A rename and a completion by SQL, as an operator's script might.
        const f = files[random(files.length)];
        await db.$executeRaw`UPDATE files SET name = ${word()}, stored = true WHERE id = ${f.id}::uuid`;
      } else if (op === 7 && files.length) {
        // A slot pointed at another of its versions, or at none.
        const f = files[random(files.length)];
        const to = random(3) ? f.id : null;
        await db.$executeRaw`UPDATE file_slots SET current_id = ${to}::uuid WHERE id = ${f.slotId}::uuid`;
      } else if (op === 8 && files.length) {
        await db.$executeRaw`DELETE FROM files WHERE id = ${files[random(files.length)].id}::uuid`;
      } else if (op === 9) {
        // A seed's bulk SQL: entries, then their slots naming versions not inserted yet, then the versions.
        const ids = await db.$queryRaw<{ id: string }[]>`
          INSERT INTO entries (id, owner_id, sandbox, name, key)
          SELECT gen_random_uuid(), ${target.ownerId}::uuid, false, 'bulk ' || g || ${word()}, CASE WHEN g % 2 = 0 THEN 'B-' || ${step} || '-' || g END
          FROM generate_series(1, 3) g RETURNING id::text`;
        const slots = ids.map((r) => r.id);
        await db.$executeRaw`
          INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
          SELECT gen_random_uuid(), e, 'attachment', 's', 1, gen_random_uuid() FROM unnest(${slots}::uuid[]) e`;
        await db.$executeRaw`
          INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce)
          SELECT current_id, entry_id, id, 'bulk-' || ${word()}, 'attachment', 'application/pdf', 1, md5(id::text), true, 1, 'n'
          FROM file_slots WHERE entry_id = ANY(${slots}::uuid[])`;
        entries.push(...slots);
      } else if (op === 10 && entries.length > 3) {
        await deleteEntry({ db, store: w.store, scope: { owners: 'all' }, id: entryId, actor: null }).catch(() => undefined);
        entries.splice(entries.indexOf(entryId), 1);
      }
      if (step % 20 === 19) expect(await differences(), `after step ${step}`).toEqual([]);
    }
    expect(await differences()).toEqual([]);
  });

  it('writes a file into an entry of 2,000 by touching only its own rows', async () => {
    const db = w.db.prisma;
    const entry = (await createEntry({ actor: TEST_ACTOR, db, target, input: { folder: '', name: 'Binder', meta: {} } })).entry;
    // 2,000 attachments, each in its own slot, by SQL (slots first, as a seed writes them).
    await db.$executeRaw`
      INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
      SELECT gen_random_uuid(), ${entry.id}::uuid, 'attachment', 'a' || g, 1, gen_random_uuid() FROM generate_series(1, 2000) g`;
    await db.$executeRaw`
      INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce)
      SELECT current_id, entry_id, id, 'attachment-' || key || '.pdf', 'attachment', 'application/pdf', 1, md5(id::text), true, 1, 'n'
      FROM file_slots WHERE entry_id = ${entry.id}::uuid`;
    expect(await names('attachment-a1999.pdf')).toEqual(['Binder']);

    /** What one statement wrote to entry_search and read from files and file_slots (this transaction's counters). */
    const measured = (statement: ReturnType<typeof Prisma.sql>) =>
      db.$transaction(async (tx) => {
        const counters = () =>
          tx.$queryRaw<{ relname: string; written: number; read: number }[]>`
            SELECT relname::text, (n_tup_ins + n_tup_upd + n_tup_del)::int AS written,
              (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS read
            FROM pg_stat_xact_user_tables WHERE relname IN ('entry_search', 'files', 'file_slots')`;
        const before = await counters();
        await tx.$executeRaw(statement);
        const after = await counters();
        const delta = (t: string, k: 'written' | 'read') =>
          (after.find((r) => r.relname === t)?.[k] ?? 0) - (before.find((r) => r.relname === t)?.[k] ?? 0);
        return {
          searchWritten: delta('entry_search', 'written'),
          filesRead: delta('files', 'read'),
          slotsRead: delta('file_slots', 'read'),
        };
      });

    // One more attachment: a slot and its version in one statement.
    const added = await measured(Prisma.sql`
      WITH s AS (INSERT INTO file_slots (id, entry_id, category, key, seq, current_id)
        VALUES (gen_random_uuid(), ${entry.id}::uuid, 'attachment', 'extra', 1, gen_random_uuid()) RETURNING id, entry_id, current_id)
      INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce)
      SELECT current_id, entry_id, id, 'extra.pdf', 'attachment', 'application/pdf', 1, md5(id::text), true, 1, 'n' FROM s`);
    // Its own row, written once (the old per-entry text read all 2,000 versions back on each write).
    expect(added.searchWritten).toBe(1);
    expect(added.filesRead).toBeLessThan(20);
    expect(added.slotsRead).toBeLessThan(20);

    // A new version of one slot, a rename, and a delete: each its own row.
    const slot = (await db.fileSlot.findFirstOrThrow({ where: { entryId: entry.id, key: 'a7' } })).id;
    const replaced = await measured(Prisma.sql`
      WITH v AS (INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce)
        VALUES (gen_random_uuid(), ${entry.id}::uuid, ${slot}::uuid, 'seventh-v2.pdf', 'attachment', 'application/pdf', 1, 'h', true, 2, 'n') RETURNING id)
      UPDATE file_slots SET current_id = (SELECT id FROM v) WHERE id = ${slot}::uuid`);
    expect(replaced.searchWritten).toBeLessThanOrEqual(2);
    expect(replaced.filesRead).toBeLessThan(20);
    const renamed = await measured(Prisma.sql`UPDATE entries SET name = 'Big binder' WHERE id = ${entry.id}::uuid`);
    expect(renamed).toEqual({ searchWritten: 1, filesRead: 0, slotsRead: 0 });
    const deleted = await measured(Prisma.sql`DELETE FROM files WHERE name = 'extra.pdf' AND entry_id = ${entry.id}::uuid`);
    expect(deleted.searchWritten).toBe(1);

    // No row holds more than one name.
    const [longest] = await db.$queryRaw<
      { n: number }[]
    >`SELECT max(length(text))::int AS n FROM entry_search WHERE entry_id = ${entry.id}::uuid`;
    expect(longest.n).toBeLessThan(40);
    expect(await names('seventh-v2')).toEqual(['Big binder']);
    expect(await names('attachment-a7.pdf')).toEqual([]);
    expect(await names('extra.pdf')).toEqual([]);
    expect(await differences()).toEqual([]);
  });
});

describe('the search_and_folder_counts migration', () => {
  it('backfills one search row per name of what was written before it', async () => {
    const { sql, migrateRest, close } = await migratedBefore('search_and_folder_counts');
    const id = testId;
    try {
      await sql.query('INSERT INTO owners (id, name) VALUES ($1, $2)', [id(1), 'o']);
      await sql.query(
        `INSERT INTO entries (id, owner_id, sandbox, name, key) VALUES ($1, $3, false, 'Keyed', 'K-1'), ($2, $3, false, 'Plain', NULL)`,
        [id(10), id(11), id(1)],
      );
      await sql.query(
        `INSERT INTO file_slots (id, entry_id, category, key, seq, current_id) VALUES ($1, $2, 'attachment', 's', 2, $3), ($4, $2, 'attachment', 'p', 1, NULL)`,
        [id(20), id(10), id(31), id(21)],
      );
      const file = `INSERT INTO files (id, entry_id, slot_id, name, category, mime, size, hash, stored, version, url_nonce)
        VALUES ($1, $2, $3, $4, 'attachment', 'application/pdf', 1, 'h', $5, 1, 'n')`;
      await sql.query(file, [id(30), id(10), id(20), 'old.pdf', true]);
      await sql.query(file, [id(31), id(10), id(20), 'new.pdf', true]);
      await sql.query(file, [id(32), id(10), id(21), 'awaited.pdf', false]);

      await migrateRest();
      const rows = await sql.query<{ source_id: string; field: string; entry_id: string; text: string }>(
        'SELECT source_id, field, entry_id, text FROM entry_search ORDER BY text',
      );
      expect(rows).toEqual([
        { source_id: id(10), field: 'key', entry_id: id(10), text: 'K-1' },
        { source_id: id(10), field: 'name', entry_id: id(10), text: 'Keyed' },
        { source_id: id(11), field: 'name', entry_id: id(11), text: 'Plain' },
        { source_id: id(32), field: 'placeholder', entry_id: id(10), text: 'awaited.pdf' },
        { source_id: id(20), field: 'version', entry_id: id(10), text: 'new.pdf' },
      ]);
    } finally {
      await close();
    }
  });
});
