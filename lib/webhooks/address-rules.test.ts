// Where a webhook may point (SECURITY.md, Webhooks): https only unless allowed, and no loopback,
// private, link-local, metadata or reserved address — as a literal, any IPv6 form embedding one
// (mapped, translated, NAT64, compatible, 6to4, Teredo, ISATAP), or a name resolving to one — unless WEBHOOK_ALLOW_PRIVATE.
import { describe, expect, it } from 'vitest';
import { isRefusedAddress, type Resolver, urlProblem } from './address-rules';

const strict = { allowHttp: false, allowPrivate: false };
const answering =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('webhook address rules', () => {
  it('refuses every special range and allows public addresses', () => {
    const refused = [
      '127.0.0.1',
      '127.9.9.9',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fd00:ec2::254',
      'fc00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '64:ff9b::10.0.0.1',
      '::127.0.0.1',
      'ff02::1',
      'not an ip',
    ];
    for (const a of refused) expect(isRefusedAddress(a), a).toBe(true);
    for (const a of ['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::6810:84e5', '::ffff:8.8.8.8'])
      expect(isRefusedAddress(a), a).toBe(false);
  });

  it('refuses http:// unless allowed, and private hosts as literals or by what their name resolves to', async () => {
    expect(await urlProblem('http://example.com/h', strict, answering('93.184.215.14'))).toMatch(/https/);
    expect(await urlProblem('http://example.com/h', { ...strict, allowHttp: true }, answering('93.184.215.14'))).toBeUndefined();
    expect(await urlProblem('https://example.com/h', strict, answering('93.184.215.14'))).toBeUndefined();
    for (const url of [
      'https://127.0.0.1/h',
      'https://[::1]/h',
      'https://[::ffff:127.0.0.1]/h',
      'https://169.254.169.254/latest',
      'https://[fd00::1]/',
    ])
      expect(await urlProblem(url, strict, answering('93.184.215.14')), url).toMatch(/WEBHOOK_ALLOW_PRIVATE/);
    // one bad address among the answers is enough
    expect(await urlProblem('https://mixed.test/h', strict, answering('93.184.215.14', '10.0.0.5'))).toMatch(/10\.0\.0\.5/);
    expect(await urlProblem('https://gone.test/h', strict, async () => Promise.reject(new Error('ENOTFOUND')))).toMatch(/does not resolve/);
    expect(await urlProblem('https://127.0.0.1/h', { allowHttp: false, allowPrivate: true })).toBeUndefined();
  });

  it('refuses every form of IPv6 address that embeds a refused IPv4, however it is spelled', async () => {
    const embedding = [
      '::ffff:0:7f00:1', // IPv4-translated ::ffff:0:0:0/96 of 127.0.0.1
      '::ffff:0:127.0.0.1',
      '0:0:0:0:ffff:0:a9fe:a9fe', // 169.254.169.254
      '0000:0000:0000:0000:0000:ffff:7f00:0001', // IPv4-mapped, spelled out
      '::ffff:a00:1', // 10.0.0.1
      '64:ff9b::7f00:1', // NAT64 well-known prefix
      '64:ff9b::c0a8:101', // 192.168.1.1
      '64:ff9b:1::7f00:1', // local-use NAT64
      '64:ff9b:1:ffff::8.8.8.8',
      '::7f00:1', // IPv4-compatible
      '::a9fe:a9fe',
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:a9fe:a9fe::', // 6to4 of the metadata address
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      '2a00:1450::200:5efe:7f00:1', // an ISATAP interface id of 127.0.0.1
      '2a00:1450::5efe:a00:1',
      'fe80::1%eth0',
    ];
    for (const a of embedding) expect(isRefusedAddress(a), a).toBe(true);
    // a public IPv4 in the forms that reach it as such stays allowed
    for (const a of ['::ffff:0:808:808', '64:ff9b::808:808', '2a00:1450::200:5efe:808:808']) expect(isRefusedAddress(a), a).toBe(false);
    // as the URL the issue named, and others: a literal is checked as written
    for (const url of [
      'https://[::ffff:0:7f00:1]/',
      'https://[64:ff9b::7f00:1]/',
      'https://[2002:7f00:1::1]/',
      'https://[::ffff:0:a9fe:a9fe]/',
    ])
      expect(await urlProblem(url, strict, answering('93.184.215.14')), url).toMatch(/WEBHOOK_ALLOW_PRIVATE/);
    // and as a name's DNS answer
    expect(await urlProblem('https://nat64.test/h', strict, answering('64:ff9b::a00:1'))).toMatch(/64:ff9b::a00:1/);
  });

  it('refuses a real name that resolves to 127.0.0.1 (the system resolver)', async () => {
    expect(await urlProblem('https://localhost/h', strict)).toMatch(/loopback/);
  });
});
