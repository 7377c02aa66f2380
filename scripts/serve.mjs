// The production HTTP server: Next's request handler on a Node server we configure ourselves.
// `next start` gives no say over Node's timeouts (its 300 s requestTimeout cut every long upload)
// nor over the answers Node and Next make before the app runs (bad requests, oversized headers,
// malformed paths, unknown methods); here each gets the contract's error body. It answers OPTIONS
// and a method the path's route does not serve (405) from the route table, so that a route file
// exports only the methods it serves (docs/design/server.md, Routing). It also records
// the TCP peer address where the app can trust it (X-Silo-Peer, always overwritten), gives every
// request its id before the app sees it, writes one JSON access-log line per request, and on
// SIGTERM stops accepting and lets requests in flight finish for SHUTDOWN_GRACE_SECONDS. Each
// request is counted for the metrics here too (lib/metrics.mjs), with its route's pattern, so
// that the answers made before the app runs count as well and a raw path never becomes a label.
import './env-files.mjs';
import './threadpool.mjs';
import './heap-growth.mjs';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import pino from 'pino';
import { inAddressList, parseAddressList } from '../lib/address-list.mjs';
import { endRefused } from '../lib/http/refused-body.mjs';
import { requestMeasured, UNMATCHED } from '../lib/metrics.mjs';
import { processSettingsOrExit } from '../lib/process-settings.mjs';
import { requestEnded, requestStarted } from '../lib/request-load.mjs';
import { readRouteTable, routeMatcher } from './route-table.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Parsed as lib/config.ts parses them (lib/process-settings.mjs); a bad one stops the start here.
const settings = processSettingsOrExit();
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const IDLE_MS = settings.UPLOAD_IDLE_TIMEOUT_SECONDS * 1000;
// Upload routes end a silent body themselves after IDLE_MS (408 upload_idle, lib/http/idle-body.ts);
// this is the backstop for every other body, e.g. a JSON request whose body never comes.
const BODY_IDLE_MS = Math.max(2 * IDLE_MS, IDLE_MS + 10_000);
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
// Only these peers' X-Forwarded-Host/-Proto reach the app.
const TRUSTED = parseAddressList(settings.TRUSTED_PROXIES);
const GRACE_MS = 1000 * settings.SHUTDOWN_GRACE_SECONDS;
// The same shape as lib/log.ts writes from inside the app.
const log = pino({
  level: settings.LOG_LEVEL,
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});

/** The contract's error body (lib/errors.ts has the same shape for everything the app answers). */
function errorBody(code, key, message) {
  return JSON.stringify({ code, key, message });
}

function sendError(req, res, code, key, message, headers = {}) {
  const body = Buffer.from(errorBody(code, key, message));
  const id = req.headers['x-request-id'];
  res.writeHead(code, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length, 'X-Request-Id': id, ...headers });
  endRefused(req, res, body);
}

/**
 * OPTIONS, and a method the route does not serve, on a path the route table knows. Next would
 * answer an App Router route's unexported method with an empty 405 without `Allow` and OPTIONS
 * without `X-Request-Id`; a Pages route would have to list them by hand.
 */
function answerUnserved(req, res, route) {
  if (req.method !== 'OPTIONS')
    return sendError(req, res, 405, 'method_not_allowed', `${req.method} is not allowed on this path`, { Allow: route.allow });
  res.writeHead(204, { Allow: route.allow, 'X-Request-Id': req.headers['x-request-id'] });
  endRefused(req, res, undefined);
}

/** Node answers these itself, before any request object exists: write the reply on the socket. */
function onClientError(err, socket) {
  if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
  const [code, key, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request headers are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request headers did not arrive in time']
        : [400, 'bad_request', 'The request is not valid HTTP'];
  const body = errorBody(code, key, message);
  socket.end(
    `HTTP/1.1 ${code} ${http.STATUS_CODES[code]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * With no overall request timeout (uploads may last hours), a body that stops arriving would hold
 * its socket and handler for ever: close the connection when no byte came for BODY_IDLE_MS while
 * the body is incomplete. A poll of the socket's byte count, so Node's own timeouts stay untouched.
 */
function closeSilentBody(req, res) {
  if (req.complete || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)) return;
  let seen = req.socket.bytesRead;
  const timer = setInterval(() => {
    if (req.complete || req.socket.destroyed) return clearInterval(timer);
    if (req.socket.bytesRead !== seen) {
      seen = req.socket.bytesRead;
      return;
    }
    clearInterval(timer);
    req.socket.destroy();
  }, BODY_IDLE_MS);
  timer.unref();
  res.once('close', () => clearInterval(timer));
}

function malformedPath(pathname) {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

// next-auth takes the console's origin from NEXTAUTH_URL, else, with AUTH_TRUST_HOST, from the
// request (X-Forwarded-Host or Host, X-Forwarded-Proto), as the API builds its urls. Without either
// it warns at the first sign-in and answers with http://localhost:3000. This server answers any
// host (behind a proxy, on several names), so it trusts the request unless the operator pins one.
process.env.AUTH_TRUST_HOST ??= 'true';
const app = next({ dev: false, dir: ROOT, hostname: settings.HOSTNAME ?? 'localhost', port: settings.PORT });
await app.prepare();
const handle = app.getRequestHandler();
const routeOf = routeMatcher(await readRouteTable(ROOT));

const server = http.createServer(
  {
    // An upload lasts as long as bytes keep coming; idle uploads are ended by the upload route
    // (UPLOAD_IDLE_TIMEOUT_SECONDS), not by a cap on the whole request.
    requestTimeout: 0,
    headersTimeout: 60_000,
  },
  (req, res) => {
    req.headers['x-silo-peer'] = req.socket.remoteAddress ?? '';
    // Anyone can write these; from anyone but a trusted proxy they would make the origin next-auth
    // builds its urls on (AUTH_TRUST_HOST, below) the client's choice. Next fills them in from Host.
    // lib/http/request-origin.ts checks the peer again (and validates) for the API's own urls.
    if (!inAddressList(TRUSTED, req.headers['x-silo-peer'])) {
      delete req.headers['x-forwarded-host'];
      delete req.headers['x-forwarded-proto'];
    }
    // The app echoes this id (lib/http/request-id.ts keeps a sane caller's id the same way).
    const requestId = SAFE_ID.test(req.headers['x-request-id'] ?? '') ? req.headers['x-request-id'] : randomUUID();
    req.headers['x-request-id'] = requestId;
    // when it started, and what work in the background yields to (lib/request-load.mjs)
    const load = requestStarted();
    // The path only: a query may hold a capability (a file url's signature).
    const pathname = (req.url ?? '/').split('?')[0];
    const malformed = malformedPath(pathname);
    const route = malformed ? undefined : routeOf(pathname);
    res.once('close', () => {
      const ms = performance.now() - load.start;
      requestEnded(load);
      requestMeasured(req.method, route?.pattern ?? UNMATCHED, res.statusCode, ms / 1000);
      const entry = {
        request_id: requestId,
        method: req.method,
        path: pathname,
        status: res.statusCode,
        ms: Math.round(ms),
      };
      if (!res.writableFinished) entry.aborted = true;
      log.info(entry, 'request');
    });
    if (!METHODS.has(req.method))
      return sendError(req, res, 405, 'method_not_allowed', `${req.method} is not allowed`, {
        Allow: route?.allow ?? [...METHODS].join(', '),
      });
    if (malformed) return sendError(req, res, 400, 'bad_request', 'The request path is not valid percent-encoding');
    if (route && !route.methods.has(req.method)) return answerUnserved(req, res, route);
    // A Pages route's public path goes to its /api path here, as next.config.js's rewrite would
    // send it, without Next's rewrite machinery: about a fifth of a small POST's work on this
    // thread (docs/design/server.md, Routing). The handler sees the same url either way.
    if (route?.api) req.url = `/api${req.url}`;
    closeSilentBody(req, res);
    const handled = handle(req, res).catch((err) => {
      log.error({ err, request_id: requestId }, 'request failed outside the app');
      if (!res.headersSent) sendError(req, res, 500, 'internal', 'Internal error');
      else res.destroy();
    });
    // Until its handler has finished (an upload flushing what it holds, releasing its lease), a
    // request keeps a shutting-down process alive, even after its connection is gone.
    inFlight.add(handled);
    void handled.finally(() => {
      inFlight.delete(handled);
      if (draining && inFlight.size === 0) exitSoon();
    });
  },
);
server.keepAliveTimeout = 65_000;
server.on('clientError', onClientError);
server.listen(settings.PORT, settings.HOSTNAME, () => {
  // lib/startup.ts prints the URL once the database is ready.
});
// Stop accepting, let requests in flight finish for the grace period, then close what is left
// (an upload cut off keeps its held bytes: it resumes on this or another instance), wait for
// those handlers to finish their cleanup, and go.
const inFlight = new Set();
let draining = false;
// A moment for the log and the database client to write what they hold.
const exitSoon = () => setTimeout(() => process.exit(0), 100);
// A signal often comes more than once: a group kill (`kill -TERM -- -PGID`, `docker stop` with an
// init, a supervisor, Ctrl-C in a terminal) reaches this process directly AND through each parent
// of `npm start` that forwards it (npm, scripts/start.mjs). Only the first starts the drain; the
// repeats change nothing (SIGKILL is the way to stop at once), so the drain is never cut short.
let stopSignal;
const shutdown = (sig) => {
  if (draining) return void log.debug({ signal: sig, first: stopSignal }, 'already shutting down');
  stopSignal = sig;
  log.info({ signal: sig, grace_seconds: GRACE_MS / 1000, in_flight: inFlight.size }, 'shutting down');
  draining = true;
  server.close();
  server.closeIdleConnections();
  if (inFlight.size === 0) return void exitSoon();
  setTimeout(() => {
    server.closeAllConnections();
    // The handlers of the connections just closed clean up; a stuck one does not hold the exit.
    setTimeout(() => process.exit(0), 10_000).unref();
  }, GRACE_MS).unref();
};
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, shutdown);
