// The read cache is never stale: every write the process commits reaches it before the writer
// hears back, and a read that raced a write is not served afterwards.
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { revokeApiKey } from '../access/revoke-api-key';
import { createOwner } from '../access/create-owner';
import { principalFromBearer } from '../access/authenticate';
import { testWorld, type TestWorld } from '../testing/database';
import { readCacheOf } from './client';
import { coalesced } from '../coalesced';
import { type Changes, createChangeLogReadCache, createReadCache } from './read-cache';
import { TRIGGERED, writtenBy } from './watch-writes';
import { TEST_ACTOR } from '../testing/actor';

describe('createReadCache', () => {
  it('serves a read until a table it names is written', async () => {
    const cache = createReadCache();
    let loads = 0;
    const read = () => cache.read(['a', 'b'], 'k', async () => ({ n: ++loads }));
    expect(await read()).toEqual({ n: 1 });
    expect(await read()).toEqual({ n: 1 });
    cache.written(new Set(['c']));
    expect(await read()).toEqual({ n: 1 });
    cache.written(new Set(['b']));
    expect(await read()).toEqual({ n: 2 });
    cache.written('all');
    expect(await read()).toEqual({ n: 3 });
  });

  it('never serves a read that a write overtook', async () => {
    const cache = createReadCache();
    let release = () => {};
    const slow = cache.read(['a'], 'k', () => new Promise<string>((r) => (release = () => r('before the write'))));
    cache.written(new Set(['a'])); // committed while the read was running
    release();
    expect(await slow).toBe('before the write');
    expect(await cache.read(['a'], 'k', async () => 'after the write')).toBe('after the write');
  });

  it('shares one load between concurrent readers, and forgets a failed one', async () => {
    const cache = createReadCache();
    let loads = 0;
    const load = async () => ++loads;
    const [x, y] = await Promise.all([cache.read(['a'], 'k', load), cache.read(['a'], 'k', load)]);
    expect([x, y, loads]).toEqual([1, 1, 1]);
    await expect(cache.read(['a'], 'e', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.read(['a'], 'e', async () => 'up')).toBe('up');
  });

  it('keeps at most its byte budget, and no value over a sixteenth of it', async () => {
    const cache = createReadCache({ entries: 100, bytes: 32_000 }); // a value kept is at most 2,000
    let loads = 0;
    const big = async () => ({ n: ++loads, text: 'x'.repeat(1_500), size: 10n }); // ~1.5 KB (bigints counted as digits)
    for (let i = 0; i < 30; i++) await cache.read(['a'], `k${i}`, big); // ~46 KB in all
    expect(loads).toBe(30);
    await cache.read(['a'], 'k29', big); // recent: kept
    expect(loads).toBe(30);
    await cache.read(['a'], 'k0', big); // the oldest went when the budget filled
    expect(loads).toBe(31);
    let huge = 0;
    const tooBig = async () => ({ n: ++huge, text: 'y'.repeat(2_100) });
    await cache.read(['a'], 'huge', tooBig);
    await cache.read(['a'], 'huge', tooBig);
    expect(huge).toBe(2); // served, never kept
  });

  it('freezes what it serves and keeps at most its size', async () => {
    const cache = createReadCache({ entries: 2, bytes: 1 << 20 });
    const v = await cache.read(['a'], 'k', async () => ({ nested: { x: 1 } }));
    expect(Object.isFrozen(v.nested)).toBe(true);
    let loads = 0;
    for (const k of ['k1', 'k2', 'k3']) await cache.read(['a'], k, async () => ++loads);
    await cache.read(['a'], 'k1', async () => ++loads); // evicted: loads again
    expect(loads).toBe(4);
  });
});

describe('the embedded database', () => {
  let w: TestWorld;
  beforeAll(async () => (w = await testWorld()));
  afterAll(() => w.close());

  it('refuses a revoked key at once, though its lookup was cached', async () => {
    const db = w.db.prisma;
    const owner = await createOwner(db, 'cached', TEST_ACTOR);
    const key = owner.api_keys[0];
    await principalFromBearer(db, key.key);
    await principalFromBearer(db, key.key);
    await revokeApiKey({ db, ownerId: owner.id, keyId: key.id, actor: TEST_ACTOR });
    await expect(principalFromBearer(db, key.key)).rejects.toMatchObject({ key: 'unauthorized' });
  });

  it('sees writes made in a transaction once it commits, and raw statements', async () => {
    const db = w.db.prisma;
    const cache = readCacheOf(db);
    const owner = await createOwner(db, 'tx', TEST_ACTOR);
    const count = () => cache.read(['entries'], `count ${owner.id}`, () => db.entry.count({ where: { ownerId: owner.id } }));
    expect(await count()).toBe(0);
    await db.$transaction(async (tx) => {
      await tx.entry.create({ data: { id: crypto.randomUUID(), ownerId: owner.id, sandbox: false } });
      expect(readCacheOf(tx)).not.toBe(cache); // no cache inside: its reads must see its writes
    });
    expect(await count()).toBe(1);
    await db.$executeRaw`INSERT INTO entries (id, owner_id, sandbox, updated_at) VALUES (${crypto.randomUUID()}::uuid, ${owner.id}::uuid, false, now())`;
    expect(await count()).toBe(2);
    await db.owner.delete({ where: { id: owner.id } }); // cascades
    expect(await count()).toBe(0);
  });

  it('keeps no change log (only PostgreSQL needs one)', async () => {
    await createOwner(w.db.prisma, 'unlogged', TEST_ACTOR);
    const n = await w.db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM cache_changes`;
    expect(n[0].n).toBe(0);
  });

  /**
   * Triggers that write no table a cached read reads: the event log's refusals (append-only), and the
   * one that keeps a deleted workspace's final heads in deleted_chains (migration event_log); the
   * retention triggers on files (migration retention: they set the row's own columns or refuse) and
   * the legal hold's on entries and files (migration legal_hold_guard: they refuse), and the one
   * guarding chain_heads.signed_from (migration event_signatures: it refuses).
   */
  const WRITE_NOTHING_CACHED = [
    'events_append_only',
    'events_no_truncate',
    'checkpoints_append_only',
    'checkpoints_no_truncate',
    'checkpoint_timestamps_append_only',
    'checkpoint_timestamps_no_truncate',
    'deleted_chains_append_only',
    'deleted_chains_no_truncate',
    'owners_keep_final_heads',
    'version_retention',
    'compliance_retained',
    'compliance_no_truncate',
    'legal_hold_entry',
    'legal_hold_file',
    'legal_hold_no_truncate',
    'blob_guard_update',
    'blob_guard_delete',
    'blob_guard_truncate',
    'entry_stays',
    'files_legal_hold_version',
    'chain_heads_signed_from',
  ];

  it('knows every table a trigger writes', async () => {
    // A trigger's writes pass no statement through Prisma: TRIGGERED must name each trigger's table.
    // (The change log's triggers write nothing here: silo.change_log is off on the embedded database.)
    const rows = await w.db.sql.query(
      `SELECT DISTINCT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE NOT t.tgisinternal AND t.tgname <> 'cache_change' AND NOT t.tgname = ANY($1) ORDER BY 1`,
      [WRITE_NOTHING_CACHED],
    );
    expect(rows.map((r) => (r as { table: string }).table)).toEqual(Object.keys(TRIGGERED).sort());
    expect(writtenBy('UPDATE "public"."entries" SET "folder" = $1')).toEqual(
      new Set(['entries', 'entry_folders', 'entry_search', 'files', 'folder_counts']),
    );
    expect(writtenBy('UPDATE file_slots SET current_id = $1')).toEqual(new Set(['file_slots', 'entry_search']));
  });
});

describe('createChangeLogReadCache', () => {
  /** A database answering from a log of commits: each commit names the tables it wrote. */
  function fakeLog() {
    const commits: string[][] = [];
    const asked: (string | null)[] = [];
    const changes = async (since: string | null): Promise<Changes> => {
      asked.push(since);
      const from = since === null ? -1 : Number(since);
      return { snapshot: String(commits.length), changed: from < 0 ? null : [...new Set(commits.slice(from).flat())] };
    };
    return { commits, asked, changes };
  }

  it('serves a value until a commit writes one of its tables; commits to other tables leave it', async () => {
    const log = fakeLog();
    const cache = createChangeLogReadCache(log.changes);
    let loads = 0;
    const read = () => cache.read(['api_keys'], 'k', async () => ++loads);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    log.commits.push(['files', 'file_slots']); // new files, anywhere
    expect(await read()).toBe(1);
    log.commits.push(['api_keys']); // a key revoked, anywhere
    expect(await read()).toBe(2);
    expect(await read()).toBe(2);
    expect(log.asked).toEqual([null, '0', '0', '1', '2']);
  });

  it('reloads everything when the log cannot say (the first question, or a pruned log)', async () => {
    let unknown = false;
    const cache = createChangeLogReadCache(async (since) => ({ snapshot: 's', changed: since === null || unknown ? null : [] }));
    let loads = 0;
    const read = () => cache.read(['entries'], 'k', async () => ++loads);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    unknown = true;
    expect(await read()).toBe(2);
  });

  it('keeps no value a commit overtook while it loaded', async () => {
    const log = fakeLog();
    const cache = createChangeLogReadCache(log.changes);
    let loads = 0;
    const load = async () => {
      loads++;
      log.commits.push(['entries']); // commits while the load runs
      return loads;
    };
    expect(await cache.read(['entries'], 'k', load)).toBe(1);
    expect(await cache.read(['entries'], 'k', async () => ++loads)).toBe(2);
    expect(await cache.read(['entries'], 'k', async () => ++loads)).toBe(2);
  });

  it('asks once per request, and again once the request has written or its answer is a second old', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    onTestFinished(() => void vi.useRealTimers());
    const log = fakeLog();
    let request: object | undefined = {};
    const cache = createChangeLogReadCache(log.changes, undefined, () => request);
    let loads = 0;
    const read = () => cache.read(['entries'], 'k', async () => ++loads);
    expect(await read()).toBe(1);
    expect(await cache.read(['api_keys'], 'other', async () => 'key')).toBe('key');
    expect(log.asked).toEqual([null]);
    // Another instance commits after the request began: the request need not see it...
    log.commits.push(['entries']);
    expect(await read()).toBe(1);
    expect(log.asked).toEqual([null]);
    // ...until it writes itself: its next read asks, and sees both.
    cache.written(new Set(['entries']));
    expect(await read()).toBe(2);
    expect(await read()).toBe(2);
    expect(log.asked).toEqual([null, '0']);
    // A second later the request asks again.
    vi.advanceTimersByTime(1001);
    expect(await read()).toBe(2);
    expect(log.asked).toEqual([null, '0', '1']);
    // The next request asks again.
    request = {};
    log.commits.push(['entries']);
    expect(await read()).toBe(3);
    expect(log.asked).toEqual([null, '0', '1', '1']);
    // Outside a request every read asks; a write there changes nothing for a request.
    request = undefined;
    cache.written('all');
    expect(await read()).toBe(3);
    expect(await read()).toBe(3);
    expect(log.asked).toEqual([null, '0', '1', '1', '2', '2']);
  });

  it("asks again after the request's write that ended while its question was out", async () => {
    const log = fakeLog();
    const request = {};
    let writeDuringQuestion = true;
    // The write commits after the question was answered by the database, and ends before the
    // reader hears the answer: the answer does not hold it.
    const cache = createChangeLogReadCache(
      async (since) => {
        const answer = await log.changes(since);
        if (writeDuringQuestion) {
          writeDuringQuestion = false;
          log.commits.push(['entries']);
          cache.written(new Set(['entries']));
        }
        return answer;
      },
      undefined,
      () => request,
    );
    let loads = 0;
    const read = () => cache.read(['entries'], 'k', async () => ++loads);
    expect(await read()).toBe(1);
    expect(await read()).toBe(2);
    expect(await read()).toBe(2);
    expect(log.asked).toEqual([null, '0']);
  });

  it('refuses a read of a table the change log does not track', async () => {
    const cache = createChangeLogReadCache(fakeLog().changes);
    await expect(cache.read(['rate_windows'], 'k', async () => 1)).rejects.toThrow(/rate_windows/);
  });

  it('asks a question sent after each read began, one at a time', async () => {
    const sent: number[] = [];
    const answers: ((s: string) => void)[] = [];
    let clock = 0;
    const snapshot = coalesced(
      () =>
        new Promise<string>((resolve) => {
          sent.push(++clock);
          answers.push(resolve);
        }),
    );
    const first = snapshot(); // sent at once
    const calledAt = ++clock;
    const second = snapshot(); // one is in flight, sent before this call: waits for the next
    const third = snapshot(); // answered by the same next one
    expect(sent).toEqual([1]);
    answers[0]('a');
    expect(await first).toBe('a');
    await new Promise((r) => setTimeout(r, 0));
    expect(sent.length).toBe(2);
    expect(sent[1]).toBeGreaterThan(calledAt);
    answers[1]('b');
    expect(await second).toBe('b');
    expect(await third).toBe('b');
  });
});
