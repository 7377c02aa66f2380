// What becomes of a request body the answer did not read: a refusal (405, 413, 507…) from a Node
// route (lib/http/node-route.ts) or from the server itself (scripts/serve.mjs). Plain JavaScript,
// so the server, which runs before Next, uses the same code.

/** The most of a refused body that is read and dropped to keep the connection. */
const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/** The longest a refused body is read after its answer before the connection is closed. */
const DRAIN_MAX_MS = 10_000;

/** How long a refused body may go on arriving after the answer, to be read and dropped. */
const LINGER_MS = 1_000;

/**
 * Sends the answer (no body to a HEAD) of a request whose body may not have been read. A body we
 * stopped reading (413, or refused before reading) cannot be left on the socket. One we can
 * afford (a declared length up to DRAIN_MAX_BYTES, or chunked) is read to its end and dropped, and
 * the connection kept: Node ends a `Connection: close` socket as soon as the answer is out, and a
 * client still sending then fails with EPIPE instead of reading the answer. A declared length past
 * that is answered `Connection: close` and cut after a linger.
 */
export function endRefused(req, res, body) {
  const answer = req.method === 'HEAD' ? undefined : body;
  if (req.readableEnded) return void res.end(answer);
  const declared = req.headers['content-length'];
  if (declared === undefined || Number(declared) <= DRAIN_MAX_BYTES) {
    res.end(answer);
    res.once('finish', () => drain(req));
    return;
  }
  res.setHeader('Connection', 'close');
  res.end(answer);
  res.once('finish', () => lingerThenClose(req));
}

/**
 * Reads the rest of a refused body and drops it, so the connection serves the next request. A
 * chunked body has no declared end: past DRAIN_MAX_BYTES (or a body still unfinished after
 * DRAIN_MAX_MS) the connection is closed the lingering way.
 */
function drain(req) {
  let left = DRAIN_MAX_BYTES;
  const stop = () => {
    clearTimeout(timer);
    req.off('data', count);
  };
  const cut = () => {
    stop();
    req.socket?.end();
    lingerThenClose(req);
  };
  const count = (chunk) => {
    left -= chunk.length;
    if (left < 0) cut();
  };
  const timer = setTimeout(cut, DRAIN_MAX_MS);
  req.on('data', count);
  req.once('end', stop);
  req.once('error', stop);
  req.resume();
}

/**
 * Closing a connection whose client is still sending resets it, and a reset may take the answer
 * with it: the client's system drops what it received but had not read (a 413 or 507 reaches it
 * as ECONNRESET). So, as nginx's lingering close does, what still arrives is read and dropped
 * until the client stops or a second has passed, and only then is the connection closed.
 */
function lingerThenClose(req) {
  const close = () => {
    clearTimeout(timer);
    req.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  req.once('end', close);
  req.once('error', close);
  req.resume();
}
