// The origin links are built on: Host and our scheme, or X-Forwarded-Host/-Proto from TRUSTED_PROXIES
// only, validated either way.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { resetConfig } from '../config';
import { isValidHost, requestOrigin } from './request-origin';

function trust(list: string | undefined) {
  if (list === undefined) delete process.env.TRUSTED_PROXIES;
  else process.env.TRUSTED_PROXIES = list;
  resetConfig();
}
afterEach(() => trust(undefined));

const forwarded = (peer: string, more: Record<string, string> = {}) =>
  new Headers({
    'x-silo-peer': peer,
    host: 'silo.internal:3000',
    'x-forwarded-host': 'files.example.com',
    'x-forwarded-proto': 'https',
    ...more,
  });

describe('requestOrigin', () => {
  it('ignores X-Forwarded-Host and X-Forwarded-Proto from a peer that is not a trusted proxy', () => {
    trust(undefined);
    expect(requestOrigin(forwarded('203.0.113.5'))).toEqual({ proto: 'http', host: 'silo.internal:3000' });
    expect(requestOrigin(forwarded('127.0.0.1', { 'x-forwarded-proto': 'javascript' }))).toEqual({
      proto: 'http',
      host: 'silo.internal:3000',
    });
    trust('10.0.0.0/8');
    expect(requestOrigin(forwarded('203.0.113.5'))).toEqual({ proto: 'http', host: 'silo.internal:3000' });
    // no peer recorded (not our server in front): nobody is trusted
    expect(requestOrigin(new Headers({ host: 'a.example', 'x-forwarded-host': 'b.example' }))).toEqual({
      proto: 'http',
      host: 'a.example',
    });
  });

  it('takes them from a trusted proxy (the first of a list)', () => {
    trust('127.0.0.1, 10.0.0.0/8');
    expect(requestOrigin(forwarded('::ffff:127.0.0.1'))).toEqual({ proto: 'https', host: 'files.example.com' });
    expect(
      requestOrigin(forwarded('10.1.2.3', { 'x-forwarded-host': 'a.example:8443, b.example', 'x-forwarded-proto': 'HTTPS, http' })),
    ).toEqual({ proto: 'https', host: 'a.example:8443' });
    // one header without the other: the other from the request itself
    const onlyProto = new Headers({ 'x-silo-peer': '10.0.0.1', host: 'h.example', 'x-forwarded-proto': 'https' });
    expect(requestOrigin(onlyProto)).toEqual({ proto: 'https', host: 'h.example' });
  });

  it('answers 400 for a scheme other than http or https or a host a URL cannot have, trusted proxy or not', () => {
    trust('127.0.0.1');
    for (const more of <Record<string, string>[]>[
      { 'x-forwarded-proto': 'javascript' },
      { 'x-forwarded-proto': 'ftp' },
      { 'x-forwarded-proto': '' },
      { 'x-forwarded-host': 'evil.example/path' },
      { 'x-forwarded-host': 'user@evil.example' },
      { 'x-forwarded-host': 'evil.example#' },
      { 'x-forwarded-host': '' },
    ]) {
      const err = (() => {
        try {
          requestOrigin(forwarded('127.0.0.1', more));
        } catch (e) {
          return e;
        }
      })();
      expect(err, JSON.stringify(more)).toBeInstanceOf(ApiError);
      expect((err as ApiError).key).toBe('bad_request');
    }
    expect(() => requestOrigin(new Headers({ host: 'a b' }))).toThrow(ApiError);
  });
});

describe('isValidHost', () => {
  it('takes DNS names, IPv4 and bracketed IPv6, with a port', () => {
    for (const h of [
      'localhost',
      'localhost:3000',
      'a.example.com',
      'my_service:80',
      '127.0.0.1:65535',
      '[::1]',
      '[::1]:3000',
      'x.example.',
    ])
      expect(isValidHost(h), h).toBe(true);
    for (const h of ['', 'a b', 'a/b', 'a?b', 'a@b', 'a:b', 'a:65536', '-a.example', '::1', '[::1', 'a..b', 'javascript:alert(1)'])
      expect(isValidHost(h), h).toBe(false);
  });
});
