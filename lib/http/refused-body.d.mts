import type { IncomingMessage, ServerResponse } from 'node:http';

/** Sends the answer of a request whose body may not have been read (refused-body.mjs). */
export function endRefused(req: IncomingMessage, res: ServerResponse, body: Buffer | undefined): void;
