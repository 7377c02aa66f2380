import type net from 'node:net';

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) → `1.2.3.4`; lowercase IPv6 (address-list.mjs). */
export function normalizeAddress(a: string): string;
/** Parses `TRUSTED_PROXIES` (addresses and CIDRs, comma separated); throws on a bad item. */
export function parseAddressList(list: string): net.BlockList;
/** Is `address` (as a socket or a header gives it: `::ffff:` forms too) in the list? */
export function inAddressList(block: net.BlockList, address: string): boolean;
