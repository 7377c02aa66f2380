// The origin a request was addressed to: what links are built on when PUBLIC_URL is unset, and what
// a console mutation's Origin must name. The Host header and the scheme this server listens with
// (plain HTTP: scripts/serve.mjs), or X-Forwarded-Host / X-Forwarded-Proto when the peer is one of
// TRUSTED_PROXIES (anyone else can write anything there, `javascript://` included). Validated
// either way: a link is never built on a host or scheme HTTP cannot have.
import { ApiError } from '../errors';
import { fromTrustedProxy } from './client-address';

export interface RequestOrigin {
  proto: 'http' | 'https';
  /** host[:port], as a URL's authority holds it */
  host: string;
}

/** What scripts/serve.mjs listens with; a TLS terminator in front says https through a trusted X-Forwarded-Proto. */
const LISTENING_SCHEME = 'http';

// A DNS name (labels of letters, digits, `-` and `_`), an IPv4 address, or an IPv6 one in brackets,
// with an optional port: RFC 3986's authority without userinfo, and nothing a URL would reinterpret.
const LABEL = '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?';
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*\\.?|\\[[0-9A-Fa-f:.]{2,45}\\])(?::\\d{1,5})?$`);

export const isValidHost = (host: string) => host.length <= 261 && HOST.test(host) && portOk(host);

function portOk(host: string): boolean {
  const m = /:(\d{1,5})$/.exec(host);
  return !m || host.endsWith(']') || Number(m[1]) <= 65535;
}

/** The first of a forwarded list (the proxy nearest the client wrote it first), or null when absent. */
const firstForwarded = (value: string | null) => (value === null ? null : value.split(',')[0].trim());

export function requestOrigin(headers: Headers): RequestOrigin {
  const trusted = fromTrustedProxy(headers);
  const forwardedHost = trusted ? firstForwarded(headers.get('x-forwarded-host')) : null;
  const forwardedProto = trusted ? firstForwarded(headers.get('x-forwarded-proto')) : null;
  const host = forwardedHost ?? headers.get('host') ?? 'localhost';
  if (!isValidHost(host))
    throw new ApiError('bad_request', `${forwardedHost !== null ? 'X-Forwarded-Host' : 'Host'} is not a valid host name`);
  const proto = (forwardedProto ?? LISTENING_SCHEME).toLowerCase();
  if (proto !== 'http' && proto !== 'https') throw new ApiError('bad_request', 'X-Forwarded-Proto must be http or https');
  return { proto, host };
}
