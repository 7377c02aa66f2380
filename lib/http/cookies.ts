// The Cookie request header (RFC 6265 §5.4) read leniently: whatever a client sends, parsing
// never throws; a malformed pair is skipped and a value that is not valid percent-encoding is
// kept as sent (so `next-auth.session-token=%` is just a token that will not verify).

export function parseCookies(header: string | null | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  for (const pair of (header ?? '').split(';')) {
    const i = pair.indexOf('=');
    if (i < 0) continue;
    const name = pair.slice(0, i).trim();
    if (!name || name in cookies) continue; // the first of a name is the most specific (RFC 6265 §5.4)
    cookies[name] = decode(unquote(pair.slice(i + 1).trim()));
  }
  return cookies;
}

const unquote = (v: string) => (v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v);

function decode(v: string): string {
  if (!v.includes('%')) return v;
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
