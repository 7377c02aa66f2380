// A webhook receiver on loopback for tests: node:http on a free port that keeps every request
// (headers and body) and answers with what the test's `answer` says, which may hold a request open.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** not answered yet, nor given up by its sender: the attempt is still open */
  open: boolean;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** answer after this many ms (longer than the sender's timeout: no answer) */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  answer: (r: Received, n: number) => Answer;
  /** connections the sender opened */
  connections: number;
  /** closes every open connection, idle ones included (as a server ending its keep-alive does) */
  dropConnections(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const r: Receiver = {
    url: '',
    received,
    answer: () => ({ status: 204 }),
    connections: 0,
    dropConnections: () => {},
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), open: true };
      received.push(got);
      res.once('close', () => (got.open = false)); // answered, or the connection ended
      const a = r.answer(got, received.length);
      const send = () => {
        res.writeHead(a.status, a.headers);
        res.end(a.body ?? '');
      };
      if (!a.delayMs) return send();
      const t = setTimeout(send, a.delayMs);
      timers.add(t);
    });
  });
  server.on('connection', () => r.connections++);
  r.dropConnections = () => server.closeAllConnections();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () => {
    for (const t of timers) clearTimeout(t);
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return r;
}
