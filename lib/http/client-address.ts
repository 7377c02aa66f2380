// The address a request comes from, for rate limits. The TCP peer is what our server
// (scripts/serve.mjs) wrote into X-Silo-Peer, overwriting whatever a client sent; X-Forwarded-For
// counts only when that peer is one of TRUSTED_PROXIES, since anyone else can write anything there.
import type net from 'node:net';
import { inAddressList, normalizeAddress, parseAddressList } from '../address-list.mjs';
import { config } from '../config';

const g = globalThis as unknown as { __siloTrusted?: { list: string; block: net.BlockList } };

function trusted(address: string): boolean {
  const list = config().TRUSTED_PROXIES;
  if (!list) return false;
  if (g.__siloTrusted?.list !== list) g.__siloTrusted = { list, block: parseAddressList(list) };
  return inAddressList(g.__siloTrusted.block, address);
}

/** Is the TCP peer one of TRUSTED_PROXIES, whose X-Forwarded-* headers count? */
export const fromTrustedProxy = (headers: Headers): boolean => trusted(normalizeAddress(headers.get('x-silo-peer') ?? ''));

/**
 * The client's address: the peer, or, when the peer is a trusted proxy, the right-most
 * X-Forwarded-For hop that is not itself a trusted proxy (each proxy appends the peer it saw, so
 * hops left of that one were written by the client and prove nothing).
 */
export function clientAddress(headers: Headers): string {
  let address = normalizeAddress(headers.get('x-silo-peer') ?? '') || 'unknown';
  if (!trusted(address)) return address;
  const hops = (headers.get('x-forwarded-for') ?? '').split(',').map(normalizeAddress).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    address = hops[i].slice(0, 64);
    if (!trusted(address)) break;
  }
  return address;
}
