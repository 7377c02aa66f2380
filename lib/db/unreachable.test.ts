// PostgreSQL gone (stopped, restarted, the network cut): a request answers 503
// `database_unavailable` with Retry-After at once — not 500 `internal`, and not after waiting
// DATABASE_WAIT_SECONDS — logged as an error with its request id; nothing of a refused write is
// stored, and once the database is back the same calls succeed without restarting the instance.
// The database sits behind a TCP relay the test cuts and restores. PostgreSQL only (the embedded
// database is a thread of the server's own process).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner } from '../access/create-owner';
import { toApiError } from '../http/to-api-error';
import { createEntry } from '../silo/create-entry';
import { TEST_ACTOR } from '../testing/actor';
import { testWorld, type TestWorld } from '../testing/database';
import { expectLogged, loggedSoFar } from '../testing/log-capture';
import { type Database, openDatabase } from './client';
import { isDatabaseBusy, isDatabaseUnreachable } from './db-errors';

expectLogged(/^database unavailable$/);

describe('isDatabaseUnreachable', () => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  const socket = (code: string, syscall = 'connect') => Object.assign(new Error(`${syscall} ${code}`), { code, syscall });
  it("knows a connection refused, reset or lost, PostgreSQL's and Prisma's words for it, and nothing else", () => {
    for (const e of [
      socket('ECONNREFUSED'),
      socket('ECONNRESET', 'read'),
      socket('ENOTFOUND', 'getaddrinfo'),
      coded('57P01', 'terminating connection due to administrator command'),
      coded('57P03', 'the database system is starting up'),
      coded('08006'),
      coded('P1001', "Can't reach database server at db:5432"),
      new Error('Connection terminated unexpectedly'),
      new Error('wrapped', { cause: socket('ECONNREFUSED') }),
      // Node's connect to a name with two addresses, both refused
      new Error('wrapped', { cause: new AggregateError([socket('ECONNREFUSED'), socket('ECONNREFUSED')]) }),
    ])
      expect(isDatabaseUnreachable(e), String(e)).toBe(true);
    for (const e of [
      coded('23505', 'duplicate key value violates unique constraint'),
      coded('P2002'),
      coded('40001', 'could not serialize access'),
      new Error('timeout exceeded when trying to connect'),
      new Error('boom'),
      // a client that went away mid-request (Node's request stream): its problem, not the database's
      coded('ECONNRESET', 'aborted'),
      undefined,
      'ECONNREFUSED',
    ])
      expect(isDatabaseUnreachable(e), String(e)).toBe(false);
  });
});

/** A TCP relay to `target` that can be cut (every connection closed, nothing listening) and restored on its port. */
async function relay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((r) => server.listen(port, '127.0.0.1', () => r((server.address() as net.AddressInfo).port)));
  const port = await listen(0);
  return {
    port,
    cut: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      }),
    restore: () => listen(port),
  };
}

/** How long a statement waits for a connection of a busy pool (DATABASE_WAIT_SECONDS): far past the test's timeout. */
const WAIT_MS = 3_600_000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL unreachable', () => {
  let w: TestWorld;
  let db: Database;
  let link: Awaited<ReturnType<typeof relay>>;
  beforeAll(async () => {
    w = await testWorld({ database: 'postgres' });
    const url = new URL(w.url as string);
    link = await relay({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(link.port);
    db = await openDatabase({ url: url.toString(), waitMs: WAIT_MS });
  });
  afterAll(async () => {
    await db?.close();
    await w?.close();
  });

  it('answers 503 database_unavailable at once, stores nothing, and serves again once it is back', async () => {
    const p = db.prisma;
    const owner = await createOwner(p, 'Cut', TEST_ACTOR);
    const target = { ownerId: owner.id, sandbox: false };
    const input = (key: string) => ({ key, folder: 'f', name: 'n', meta: {} });
    await createEntry({ actor: TEST_ACTOR, db: p, target, input: input('before') });

    await link.cut();
    for (const [n, call] of [
      ['write', () => createEntry({ actor: TEST_ACTOR, db: p, target, input: input('refused') })],
      ['read', () => p.entry.findMany({ where: { ownerId: owner.id } })],
      ['write again', () => createEntry({ actor: TEST_ACTOR, db: p, target, input: input('refused') })],
    ] as const) {
      const t0 = Date.now();
      const err = await (call as () => Promise<unknown>)().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, n).toBeDefined();
      // at once: not after the hour a busy database is given (the test's own timeout is far shorter)
      expect(Date.now() - t0, n).toBeLessThan(WAIT_MS);
      expect(isDatabaseUnreachable(err), `${n}: ${String(err)}`).toBe(true);
      expect(isDatabaseBusy(err), n).toBe(false);
      const answer = toApiError(err, `req-${n}`);
      expect(answer.status).toBe(503);
      expect(answer.key).toBe('database_unavailable');
      expect(answer.headers).toEqual({ 'Retry-After': '5' });
      expect(answer.body().message).toMatch(new RegExp(`database is unavailable.*req-${n}`));
      expect(
        loggedSoFar()
          .filter((l) => l.request_id === `req-${n}`)
          .map((l) => [l.level, l.msg]),
      ).toEqual([['error', 'database unavailable']]);
    }

    await link.restore();
    await createEntry({ actor: TEST_ACTOR, db: p, target, input: input('after') });
    const keys = (await p.entry.findMany({ where: { ownerId: owner.id }, orderBy: { key: 'asc' } })).map((e) => e.key);
    expect(keys).toEqual(['after', 'before']);
  });
});
