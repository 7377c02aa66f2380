// RFC 9110 §8.3.1 media types, restricted to ASCII so that every accepted value is a valid
// Content-Type header: type "/" subtype *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] ).

const TCHAR = "[!#$%&'*+.^_`|~0-9A-Za-z-]";
const TOKEN = `${TCHAR}+`;
// qdtext without obs-text (bytes over 0x7F), and quoted-pair over visible ASCII.
const QUOTED = '"(?:[\\t !#-\\[\\]-~]|\\\\[\\t -~])*"';
const PARAMETER = `${TOKEN}=(?:${TOKEN}|${QUOTED})`;
// Whitespace after ";" belongs to the parameter when one follows, so every input splits one way
// only and a failed match cannot backtrack through alternatives.
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;(?:[ \\t]*${PARAMETER})?)*[ \\t]*$`);

export const MAX_MEDIA_TYPE_LENGTH = 255;

/** Is `s` a media type we accept (and can send back as a header)? Lengths are checked first. */
export function isMediaType(s: string): boolean {
  return s.length <= MAX_MEDIA_TYPE_LENGTH && MEDIA_TYPE.test(s);
}
