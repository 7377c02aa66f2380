// What a statement writes, read from its text (watch-writes.ts): reads write nothing, an INSERT or
// UPDATE names its table and the tables its triggers write, anything else counts as everything.
import { describe, expect, it } from 'vitest';
import { writtenBy } from './watch-writes';

describe('writtenBy', () => {
  it('reads nothing into a read', () => {
    expect(writtenBy('SELECT "public"."entries"."id" FROM "public"."entries" WHERE "updated_at" > $1')).toBeUndefined();
    expect(writtenBy('SELECT * FROM "public"."upload_leases" WHERE "file_id" = $1 FOR UPDATE')).toBeUndefined();
    expect(writtenBy('SELECT * FROM files FOR NO KEY UPDATE SKIP LOCKED')).toBeUndefined();
    expect(writtenBy("SELECT 'DELETE FROM owners' AS text")).toBeUndefined();
    expect(writtenBy('SET TRANSACTION ISOLATION LEVEL SERIALIZABLE')).toBeUndefined();
  });

  it('names the tables an INSERT or UPDATE writes', () => {
    expect(writtenBy('INSERT INTO "public"."entries" ("id","name") VALUES ($1,$2) RETURNING "id"')).toEqual(
      new Set(['entries', 'entry_folders', 'entry_search', 'files', 'folder_counts']),
    );
    expect(writtenBy('UPDATE "public"."api_keys" SET "revoked_at" = $1 WHERE "id" = $2')).toEqual(new Set(['api_keys']));
    expect(writtenBy('INSERT INTO blobs (hash, size) VALUES ($1, $2) ON CONFLICT (hash) DO UPDATE SET size = excluded.size')).toEqual(
      new Set(['blobs']),
    );
    expect(writtenBy('INSERT INTO "blobs" ("hash") VALUES ($1) ON CONFLICT DO NOTHING')).toEqual(new Set(['blobs']));
    expect(
      writtenBy(
        'WITH slot AS (INSERT INTO file_slots (id) VALUES ($1) ON CONFLICT (entry_id) DO UPDATE SET seq = file_slots.seq + 1 RETURNING id) UPDATE "files" SET version = 1 FROM slot',
      ),
    ).toEqual(new Set(['file_slots', 'files', 'entry_search']));
  });

  it('counts anything else that writes as writing every table', () => {
    expect(writtenBy('DELETE FROM "public"."owners" WHERE "id" = $1')).toBe('all');
    expect(writtenBy('WITH gone AS (DELETE FROM files WHERE id = $1 RETURNING slot_id) SELECT * FROM gone')).toBe('all');
    expect(writtenBy('TRUNCATE entries')).toBe('all');
    expect(writtenBy('CREATE INDEX x ON entries (name)')).toBe('all');
    expect(writtenBy('ALTER TABLE entries ADD COLUMN x int')).toBe('all');
  });
});
