// A version's member in the auditor's export: `files/<entry_id>/<file_id>/v<version>-<name>`
// (docs/api.md, Export). Each segment must be a name every file system and unzip can create: no
// path separator or character Windows refuses, and at most 255 bytes of UTF-8 (ext4, APFS, NTFS's
// 255 UTF-16 units are never fewer). A longer name is cut, keeping its extension; the member stays
// unique because its directory is the version's own id, and files.csv pairs it with the name as
// stored.

/** The most bytes of UTF-8 in one segment of a member's path. */
export const SEGMENT_BYTES = 255;
/** An extension longer than this is part of the name, and cut with it. */
const EXTENSION_BYTES = 32;
/** Marks a cut name: ASCII, so it costs one byte. */
const CUT = '~';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** A file name as a member's last segment: no path separators, nothing Windows cannot create. */
const memberFileName = (name: string) => name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_');

/** `s`'s longest prefix of whole code points within `max` bytes of UTF-8. */
function prefixWithin(s: string, max: number): string {
  let out = '';
  let used = 0;
  for (const c of s) {
    used += bytes(c);
    if (used > max) break;
    out += c;
  }
  return out;
}

/** `v<version>-<name>`, cut to SEGMENT_BYTES with its extension kept. */
export function versionSegment(version: number, name: string): string {
  const whole = `v${version}-${memberFileName(name)}`;
  if (bytes(whole) <= SEGMENT_BYTES) return whole;
  const dot = whole.lastIndexOf('.');
  const ext = dot > whole.indexOf('-') + 1 && bytes(whole.slice(dot)) <= EXTENSION_BYTES ? whole.slice(dot) : '';
  const stem = ext ? whole.slice(0, dot) : whole;
  return `${prefixWithin(stem, SEGMENT_BYTES - bytes(CUT) - bytes(ext))}${CUT}${ext}`;
}

/** The member of a version's bytes. */
export const versionMember = (v: { entryId: string; fileId: string; version: number; name: string }) =>
  `files/${v.entryId}/${v.fileId}/${versionSegment(v.version, v.name)}`;
