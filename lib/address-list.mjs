// IP addresses and CIDR lists (TRUSTED_PROXIES): parsed with Node's BlockList, no dependency.
// Plain JavaScript, so the server (scripts/serve.mjs, plain node) reads a list as the app does.
import net from 'node:net';

/** `::ffff:1.2.3.4` (an IPv4 peer on a dual-stack socket) → `1.2.3.4`; lowercase IPv6. */
export function normalizeAddress(a) {
  const s = a.trim().toLowerCase();
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  return m ? m[1] : s;
}

/** Parses `TRUSTED_PROXIES` (addresses and CIDRs, comma separated); throws on a bad item. */
export function parseAddressList(list) {
  const block = new net.BlockList();
  for (const raw of list.split(',')) {
    const item = raw.trim();
    if (!item) continue;
    const [addr, bits, extra] = item.split('/');
    const a = normalizeAddress(addr);
    const family = net.isIP(a);
    if (!family || extra !== undefined) throw new Error(`"${item}" is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) block.addAddress(a, type);
    else {
      const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
      if (!(prefix >= 0 && prefix <= (family === 4 ? 32 : 128))) throw new Error(`"${item}" has a bad prefix length`);
      block.addSubnet(a, prefix, type);
    }
  }
  return block;
}

/** Is `address` (as a socket or a header gives it: `::ffff:` forms too) in the list? */
export function inAddressList(block, address) {
  const a = normalizeAddress(address);
  const family = net.isIP(a);
  return family !== 0 && block.check(a, family === 4 ? 'ipv4' : 'ipv6');
}
