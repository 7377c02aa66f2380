// Where a webhook may be sent (SECURITY.md, Webhooks): https:// unless WEBHOOK_ALLOW_HTTP, and never
// to a loopback, private, link-local, metadata or otherwise special address unless
// WEBHOOK_ALLOW_PRIVATE. Checked at creation (every address the name resolves to) and again at
// each delivery on the DNS answer the connection then uses (lookupChecked): no rebinding window.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import net from 'node:net';

export interface WebhookRules {
  allowHttp: boolean;
  allowPrivate: boolean;
}

// Two lists: a BlockList checks an IPv4 address against its IPv6 rules too (as IPv4-mapped).
const refused4 = new net.BlockList();
const refused6 = new net.BlockList();
for (const [a, bits] of [
  ['0.0.0.0', 8], // "this" network; 0.0.0.0 reaches the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  refused4.addSubnet(a, bits, 'ipv4');
for (const [a, bits] of [
  ['::', 96], // unspecified, loopback (::1) and IPv4-compatible (::a.b.c.d, deprecated: any IPv4)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): its IPv4 may sit anywhere after the prefix
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (embeds a server's and an obfuscated client's IPv4)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds any IPv4)
  ['fc00::', 7], // unique local (fd00::/8, fd00:ec2::254 the AWS metadata)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const)
  refused6.addSubnet(a, bits, 'ipv6');

/** An IPv6 address as its eight 16-bit groups, whatever its spelling (`::`, a dotted tail, a zone). */
function groupsOf(address: string): number[] | undefined {
  let a = address.split('%')[0].toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted.slice(1).map(Number);
    a = `${a.slice(0, dotted.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.split('::');
  const part = (p: string | undefined) => (p ? p.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  const groups = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * The IPv4 address an IPv6 address carries in its last 32 bits, in the forms that reach it:
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), the well-known NAT64 prefix
 * (64:ff9b::/96) and an ISATAP interface id (…:0:5efe:a.b.c.d). The other forms embedding an IPv4
 * (IPv4-compatible, local-use NAT64, 6to4, Teredo) are refused whole (refused6).
 */
function embeddedIpv4(address: string): string | undefined {
  const g = groupsOf(address);
  if (!g) return undefined;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const carries =
    (zero(0, 5) && g[5] === 0xffff) ||
    (zero(0, 4) && g[4] === 0xffff && g[5] === 0) ||
    (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) ||
    ((g[4] === 0 || g[4] === 0x200) && g[5] === 0x5efe);
  return carries ? `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}` : undefined;
}

/** Whether `address` (an IP) is one no webhook may reach without WEBHOOK_ALLOW_PRIVATE. */
export function isRefusedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (family === 4) return refused4.check(address, 'ipv4');
  const v4 = embeddedIpv4(address);
  if (v4 && refused4.check(v4, 'ipv4')) return true;
  return refused6.check(address, 'ipv6');
}

/** The URL's host as an IP literal ([::1] → ::1), or undefined for a name. */
export function ipLiteral(hostname: string): string | undefined {
  const h = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(h) ? h : undefined;
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (err, list) => (err ? reject(err) : resolve(list))));

/** Why `url` may not be a webhook's, or undefined when it may (every address it resolves to is checked). */
export async function urlProblem(url: string, rules: WebhookRules, resolve: Resolver = systemResolver): Promise<string | undefined> {
  const u = new URL(url);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && rules.allowHttp))
    return 'must be an https:// URL (http:// only with WEBHOOK_ALLOW_HTTP=true)';
  if (rules.allowPrivate) return undefined;
  const literal = ipLiteral(u.hostname);
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = (await resolve(u.hostname)).map((a) => a.address);
    } catch {
      return `host ${u.hostname} does not resolve`;
    }
  }
  const bad = addresses.find(isRefusedAddress);
  return bad
    ? `${u.hostname} is a loopback, private, link-local or reserved address (${bad}); allowed only with WEBHOOK_ALLOW_PRIVATE=true`
    : undefined;
}

/** A refused address at delivery: the attempt fails with this as its error. */
export class RefusedAddress extends Error {
  override name = 'RefusedAddress';
}

/**
 * A `lookup` for http(s).request: resolves the name, refuses the answer if any address in it is
 * refused, and hands the socket exactly the address it checked.
 */
export function lookupChecked(rules: WebhookRules, resolve: Resolver = systemResolver): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (list) => {
        const bad = rules.allowPrivate ? undefined : list.find((a) => isRefusedAddress(a.address));
        if (bad) return callback(new RefusedAddress(`${hostname} resolved to a refused address (${bad.address})`), '', 4);
        const pick = list.find((a) => !options.family || a.family === options.family) ?? list[0];
        if (!pick) return callback(new Error(`${hostname} did not resolve`), '', 4);
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, l: LookupAddress[]) => void)(null, [pick]);
        callback(null, pick.address, pick.family);
      },
      (err) => callback(err, '', 4),
    );
  };
}
