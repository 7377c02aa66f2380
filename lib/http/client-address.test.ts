// The client address behind rate limits: the peer our server recorded, and X-Forwarded-For only
// from TRUSTED_PROXIES (the right-most hop that is not a trusted proxy).
import { afterEach, describe, expect, it } from 'vitest';
import { parseAddressList } from '../address-list.mjs';
import { config, resetConfig } from '../config';
import { clientAddress } from './client-address';

const h = (peer: string, xff?: string) => new Headers({ 'x-silo-peer': peer, ...(xff ? { 'x-forwarded-for': xff } : {}) });

function trust(list: string | undefined) {
  if (list === undefined) delete process.env.TRUSTED_PROXIES;
  else process.env.TRUSTED_PROXIES = list;
  resetConfig();
}
afterEach(() => trust(undefined));

describe('clientAddress', () => {
  it('ignores X-Forwarded-For from an untrusted peer', () => {
    trust(undefined);
    expect(clientAddress(h('203.0.113.5', '1.2.3.4'))).toBe('203.0.113.5');
    expect(clientAddress(h('::ffff:127.0.0.1', '1.2.3.4'))).toBe('127.0.0.1');
    trust('10.0.0.0/8');
    expect(clientAddress(h('203.0.113.5', '1.2.3.4'))).toBe('203.0.113.5');
    expect(clientAddress(new Headers({ 'x-forwarded-for': '1.2.3.4' }))).toBe('unknown');
  });

  it('takes the right-most untrusted hop behind trusted proxies', () => {
    trust('127.0.0.1, 10.0.0.0/8, fd00::/8');
    expect(clientAddress(h('::ffff:127.0.0.1', '1.2.3.4'))).toBe('1.2.3.4');
    // the client wrote "9.9.9.9"; our proxy appended the address it saw
    expect(clientAddress(h('127.0.0.1', '9.9.9.9, 198.51.100.7'))).toBe('198.51.100.7');
    expect(clientAddress(h('127.0.0.1', '9.9.9.9, 198.51.100.7, 10.1.2.3'))).toBe('198.51.100.7');
    expect(clientAddress(h('fd12::1', '2001:DB8::1'))).toBe('2001:db8::1');
    // all hops trusted: the left-most; no header: the proxy itself
    expect(clientAddress(h('127.0.0.1', '10.0.0.1, 10.0.0.2'))).toBe('10.0.0.1');
    expect(clientAddress(h('127.0.0.1'))).toBe('127.0.0.1');
  });
});

describe('TRUSTED_PROXIES', () => {
  it('accepts addresses and CIDRs and refuses anything else', () => {
    expect(() => parseAddressList('127.0.0.1, ::1, 10.0.0.0/8, 2001:db8::/32,')).not.toThrow();
    for (const bad of ['localhost', '10.0.0.0/33', '::/129', '1.2.3.4/x', '1.2.3.4/8/9', '300.1.1.1'])
      expect(() => parseAddressList(bad), bad).toThrow();
    trust('10.0.0.0/33');
    expect(() => config()).toThrow(/TRUSTED_PROXIES/);
  });
});
