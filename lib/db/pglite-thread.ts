// The embedded database on a thread of its own (pglite-worker.mjs), reached through PostgreSQL's
// wire protocol over MessagePorts: a pg Pool whose connections are ports instead of sockets, so
// the server talks to PGlite with the driver and Prisma adapter it uses for PostgreSQL, and
// PGlite's work (its interpreter, its file writes) no longer runs on the thread that serves HTTP.
// No socket is opened: nothing outside this process can reach the database.
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Duplex } from 'node:stream';
import pg from 'pg';
import { log } from '../log';

export interface PgliteThread {
  pool: pg.Pool;
  /** the database's thread (tests end it to see a failure answered) */
  worker: Worker;
  /** Ends the pool's connections, then closes PGlite (a checkpoint) and ends the thread. */
  close(): Promise<void>;
}

// Resolved from the working directory (the repository's root, as the migrations are: migrate.ts),
// never bundled: the thread loads it with Node's own loader.
const workerFile = () => path.join(/* turbopackIgnore: true */ process.cwd(), 'lib', 'db', 'pglite-worker.mjs');

/**
 * Starts PGlite on its own thread (`dataDir` absent: in memory, from the tarball `loadDataDir` if
 * given) and a pool of connections to it; `waitMs`: how long a statement waits for the pool's
 * connection before it fails (none: for ever).
 */
export async function startPgliteThread(dataDir?: string, opts: { waitMs?: number; loadDataDir?: string } = {}): Promise<PgliteThread> {
  // A new directory is made by initdb, whose memory (about half a gigabyte) a thread that then only
  // runs statements kept for good: made by a thread of its own, ended at once.
  if (dataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) await (await startThread({ dataDir })).close();
  return startThread({ dataDir, loadDataDir: dataDir ? undefined : opts.loadDataDir }, opts.waitMs);
}

async function startThread(workerData: { dataDir?: string; loadDataDir?: string }, waitMs?: number): Promise<PgliteThread> {
  const worker = new Worker(workerFile(), { workerData });
  await new Promise<void>((resolve, reject) => {
    const failed = (err: unknown) => reject(err instanceof Error ? err : new Error(String(err)));
    worker.once('error', failed);
    worker.once('exit', (code) => failed(new Error(`the embedded database's thread ended (${code}) before it was ready`)));
    worker.once('message', (m: { type: string }) => {
      if (m.type === 'ready') {
        worker.removeAllListeners('error');
        worker.removeAllListeners('exit');
        resolve();
      } else failed(new Error(`unexpected first message from the embedded database's thread: ${m.type}`));
    });
  });
  // The thread failing (PGlite threw, or the thread ended) fails every connection at once, with the
  // reason: no statement waits for an answer that cannot come, and no new connection is made.
  let fatal: Error | null = null;
  let closing = false;
  let exited = false;
  const sockets = new Set<PortSocket>();
  const fail = (err: Error) => {
    fatal ??= err;
    log.error({ err: fatal }, "the embedded database's thread failed");
    for (const socket of sockets) socket.destroy(fatal);
  };
  worker.on('message', (m: { type: string; message?: string }) => {
    if (m.type === 'fatal') fail(new Error(`the embedded database failed: ${m.message}`));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => {
    exited = true;
    if (!closing) fail(new Error(`the embedded database's thread ended (exit code ${code})`));
  });
  // One connection: PGlite is one session. A transaction holds it; other statements wait in the
  // pool's queue, as they waited for PGlite's own lock when it ran on this thread.
  const pool = new pg.Pool({
    max: 1,
    connectionTimeoutMillis: waitMs,
    user: 'postgres',
    database: 'postgres',
    stream: () => {
      // After a failure a new connection fails at once, as a refused socket would (a throw here would escape pg).
      const socket = new PortSocket(worker, fatal);
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      return socket as never;
    },
  });
  // An idle connection failed with the thread is an event of the pool, not a crash (as for PostgreSQL: client.ts).
  pool.on('error', () => {});
  return {
    pool,
    worker,
    close: async () => {
      closing = true;
      await pool.end();
      if (exited) return;
      await new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
        worker.postMessage({ type: 'close' });
      });
      await worker.terminate();
    },
  };
}

/** A socket for pg whose bytes travel over a MessagePort to the database's thread. */
class PortSocket extends Duplex {
  private port: MessagePort | null = null;

  constructor(
    private readonly worker: Worker,
    /** why the thread cannot be reached: the connection fails with it */
    private readonly refused: Error | null = null,
  ) {
    super();
  }

  connect(): this {
    if (this.refused) {
      const refused = this.refused;
      process.nextTick(() => this.destroy(refused));
      return this;
    }
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    port1.on('message', (data: Uint8Array) => this.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength)));
    port1.on('close', () => this.push(null));
    this.worker.postMessage({ type: 'connect', port: port2 }, [port2]);
    process.nextTick(() => this.emit('connect'));
    return this;
  }

  _read(): void {}

  _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (!this.port) {
      done(new Error('not connected'));
      return;
    }
    const copy = new Uint8Array(chunk);
    this.port.postMessage(copy, [copy.buffer]);
    done();
  }

  _final(done: (err?: Error | null) => void): void {
    this.port?.close();
    done();
  }

  _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.port?.close();
    done(err);
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }
}
