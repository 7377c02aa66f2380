// The embedded database's own thread: PGlite runs here, off the thread that serves HTTP, and
// speaks PostgreSQL's wire protocol to it — the same protocol, driver (pg) and Prisma adapter the
// server uses on PostgreSQL (docs/design/database.md, "The embedded database's thread").
//
// The main thread (pglite-thread.ts) opens a connection by sending a MessagePort; each port is one
// connection, carrying the protocol's bytes both ways. PGlite is one session, so its statements run
// one message at a time, and while a connection holds a transaction open only that connection's
// messages run (the others wait their turn). A connection that goes away inside a transaction has
// it rolled back. Named statements are a connection's own, as on PostgreSQL: the name a connection
// gives one is suffixed with the connection's number in every message that carries it, and a
// connection's statements are deallocated once it is gone.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

// pg_trgm: the entry list's `?q=` reads a trigram index (migration search_and_folder_counts).
const extensions = { pg_trgm };
// In memory, a tarball of a data directory (PGlite's dumpDataDir) may stand for initdb: the tests' migrated template.
const loadDataDir = workerData.loadDataDir ? new Blob([await readFile(workerData.loadDataDir)]) : undefined;
const lite = workerData.dataDir
  ? await PGlite.create(workerData.dataDir, { extensions })
  : await PGlite.create({ extensions, loadDataDir });
// Only this process writes here and it sees every write itself: no change log (prisma/sql/change-log.sql).
await lite.exec("SET silo.change_log = 'off'");

/** @type {Connection[]} connections with whole messages waiting, in the order they arrived */
const waiting = [];
/** @type {Connection | null} the connection whose transaction is open: only its messages run */
let holder = null;
let running = false;
/** @type {string[]} the statements of connections gone, deallocated when no transaction is open */
const orphaned = [];
let connections = 0;

class Connection {
  constructor(port) {
    this.port = port;
    this.buffer = Buffer.alloc(0);
    /** @type {Buffer[]} whole messages not yet run */
    this.pending = [];
    this.started = false;
    this.closed = false;
    /** the suffix of this connection's statement names, and the names it parsed */
    this.suffix = `_c${++connections}`;
    /** @type {Set<string>} */
    this.names = new Set();
    port.on('message', (data) => this.receive(Buffer.from(data.buffer, data.byteOffset, data.byteLength)));
    port.on('close', () => this.close());
  }

  /** Splits the bytes received into whole messages and queues them. */
  receive(data) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
    let queued = false;
    for (;;) {
      if (!this.started) {
        // Untyped messages come first: SSLRequest (answered "N": no TLS on a thread's port), CancelRequest, StartupMessage.
        if (this.buffer.length < 8) break;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) break;
        const code = this.buffer.readInt32BE(4);
        const message = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        if (code === SSL_REQUEST) this.send(Buffer.from('N'));
        else if (code === PROTOCOL_3) {
          this.started = true;
          this.pending.push(message);
          queued = true;
        } else if (code !== CANCEL_REQUEST) return this.close();
        continue;
      }
      if (this.buffer.length < 5) break;
      const length = 1 + this.buffer.readInt32BE(1);
      if (this.buffer.length < length) break;
      const message = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      if (message[0] === 0x58 /* Terminate */) return this.close();
      this.pending.push(ownNames(this, message));
      queued = true;
    }
    // The rest of a message stays for the next bytes: copied, since `data` is reused by no one
    // but may be large.
    if (this.buffer.length) this.buffer = Buffer.from(this.buffer);
    if (queued && !waiting.includes(this)) waiting.push(this);
    if (!running) void run();
  }

  send(bytes) {
    if (this.closed) return;
    const copy = new Uint8Array(bytes);
    this.port.postMessage(copy, [copy.buffer]);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.port.close();
    this.pending = [];
    orphaned.push(...this.names);
    const i = waiting.indexOf(this);
    if (i >= 0) waiting.splice(i, 1);
    if (!running) void run();
  }
}

/**
 * `message` with the statement name it carries (Parse, Bind, Describe or Close of a statement)
 * suffixed with the connection's own; the unnamed statement and portals are left as they are.
 * A name parsed is remembered, to be deallocated when the connection is gone.
 */
function ownNames(connection, message) {
  const type = message[0];
  let at; // where the statement's name begins
  if (type === 0x50 /* Parse */) at = 5;
  else if (type === 0x42 /* Bind: portal, then statement */) at = message.indexOf(0, 5) + 1 || message.length;
  else if ((type === 0x44 /* Describe */ || type === 0x43) /* Close */ && message[5] === 0x53 /* 'S' */) at = 6;
  else return message;
  const end = message.indexOf(0, at);
  if (end <= at) return message; // the unnamed statement (or a malformed message, left to PGlite)
  const name = message.toString('utf8', at, end) + connection.suffix;
  if (type === 0x50) connection.names.add(name);
  const renamed = Buffer.concat([message.subarray(0, at), Buffer.from(name), message.subarray(end)]);
  renamed.writeInt32BE(renamed.length - 1, 1);
  return renamed;
}

/** Deallocates the statements of connections gone (a name PGlite never prepared is skipped). */
async function deallocateOrphans() {
  while (orphaned.length) {
    const name = orphaned.pop();
    await lite.exec(`DEALLOCATE "${name.replaceAll('"', '""')}"`).catch(() => {});
  }
}

/**
 * Runs the waiting connections' messages, each connection's whole messages in one call (pg sends
 * a statement as Parse, Bind, Describe, Execute, Sync: one call, not five); while a transaction is
 * open, only its connection's. A connection gone inside its transaction has it rolled back.
 */
async function run() {
  running = true;
  try {
    for (;;) {
      if (holder?.closed) {
        await lite.exec('ROLLBACK').catch(() => {});
        holder = null;
      }
      if (!holder && orphaned.length) await deallocateOrphans();
      const i = holder ? waiting.indexOf(holder) : 0;
      if (i < 0 || waiting.length === 0) return;
      const [connection] = waiting.splice(i, 1);
      const batch = connection.pending.length === 1 ? connection.pending[0] : Buffer.concat(connection.pending);
      connection.pending = [];
      // Each chunk is a view of PGlite's memory, overwritten by the next: sent (copied) at once.
      await lite.execProtocolRawStream(batch, { onRawData: (data) => connection.send(data) });
      holder = lite.isInTransaction() ? connection : null;
    }
  } catch (err) {
    parentPort.postMessage({ type: 'fatal', message: String(err?.stack ?? err) });
  } finally {
    running = false;
  }
}

parentPort.on('message', async (m) => {
  if (m.type === 'connect') new Connection(m.port);
  else if (m.type === 'close') {
    try {
      await lite.close();
      parentPort.postMessage({ type: 'closed' });
    } catch (err) {
      parentPort.postMessage({ type: 'closed', error: String(err) });
    }
    // Ends the thread as a process ends: its exit handlers run (a CPU profile's, in benchmarks).
    process.exit(0);
  }
});
// Started from a tarball, PGlite resolves before the work its start left on this thread's event loop
// has run (a few hundred milliseconds, hidden behind initdb otherwise): ready once it has, so a first
// connection with a short DATABASE_WAIT_SECONDS does not time out behind it.
await new Promise((resolve) => setTimeout(resolve, 0));
parentPort.postMessage({ type: 'ready' });
