// The fields of the export ZIP's records (APPNOTE.TXT 4.3-4.5), to name the first one that
// differs when zip-structure.ts holds a record to the bytes writeExport writes (zip-records.ts).

/** A record's fields: where each starts, its width in bytes, and its name in a message. */
export type Fields = readonly (readonly [at: number, width: number, what: string])[];

export const named = (fields: Fields, at: number, nameBytes: number, more: Fields = []): Fields => [
  ...fields,
  [at, nameBytes, 'the name'],
  ...more.map(([a, w, what]) => [at + nameBytes + a, w, what] as const),
];
export const LOCAL: Fields = [
  [0, 4, 'the signature'],
  [4, 2, 'version needed'],
  [6, 2, 'the flags'],
  [8, 2, 'the method'],
  [10, 2, 'the time'],
  [12, 2, 'the date'],
  [14, 4, 'the crc-32'],
  [18, 4, 'the compressed size'],
  [22, 4, 'the size'],
  [26, 2, 'the name length'],
  [28, 2, 'the extra field length'],
];
export const CENTRAL: Fields = [
  [0, 4, 'the signature'],
  [4, 2, 'version made by'],
  [6, 2, 'version needed'],
  [8, 2, 'the flags'],
  [10, 2, 'the method'],
  [12, 2, 'the time'],
  [14, 2, 'the date'],
  [16, 4, 'the crc-32'],
  [20, 4, 'the compressed size'],
  [24, 4, 'the size'],
  [28, 2, 'the name length'],
  [30, 2, 'the extra field length'],
  [32, 2, 'the comment length'],
  [34, 2, 'the disk'],
  [36, 2, 'the internal attributes'],
  [38, 4, 'the external attributes'],
  [42, 4, 'the local header offset'],
];
export const ZIP64_EXTRA: Fields = [
  [0, 2, 'the zip64 field tag'],
  [2, 2, 'the zip64 field size'],
  [4, 8, 'the zip64 size'],
  [12, 8, 'the zip64 compressed size'],
  [20, 8, 'the zip64 local header offset'],
];
export const DESCRIPTOR = (zip64: boolean): Fields => [
  [0, 4, 'the signature'],
  [4, 4, 'the crc-32'],
  [8, zip64 ? 8 : 4, 'the compressed size'],
  [zip64 ? 16 : 12, zip64 ? 8 : 4, 'the size'],
];
export const END: Fields = [
  [0, 4, 'the signature'],
  [4, 2, 'the disk number'],
  [6, 2, "the central directory's disk"],
  [8, 2, 'the entries on this disk'],
  [10, 2, 'the entries'],
  [12, 4, "the central directory's size"],
  [16, 4, "the central directory's offset"],
  [20, 2, 'the comment length'],
];
export const ZIP64_END: Fields = [
  [0, 4, 'the signature'],
  [4, 8, 'the record size'],
  [12, 2, 'version made by'],
  [14, 2, 'version needed'],
  [16, 4, 'the disk number'],
  [20, 4, "the central directory's disk"],
  [24, 8, 'the entries on this disk'],
  [32, 8, 'the entries'],
  [40, 8, "the central directory's size"],
  [48, 8, "the central directory's offset"],
];
export const LOCATOR: Fields = [
  [0, 4, 'the signature'],
  [4, 4, "the record's disk"],
  [8, 8, "the zip64 record's offset"],
  [16, 4, 'the disk count'],
];

const fieldValue = (b: Buffer, at: number, width: number, what: string) =>
  what === 'the name'
    ? JSON.stringify(b.subarray(at, at + width).toString('utf8'))
    : width === 8
      ? Number(b.readBigUInt64LE(at))
      : b.readUIntLE(at, width);

/**
 * Why `actual` is not `expected` (the first field that differs, with both values), or undefined
 * when they are the same bytes. `said` names where the expected value comes from.
 */
export function differs(fields: Fields, actual: Buffer, expected: Buffer, said = 'expected'): string | undefined {
  if (actual.equals(expected)) return undefined;
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  const field = fields.find(([at, width]) => i >= at && i < at + width);
  if (!field || field[0] + field[1] > actual.length || field[0] + field[1] > expected.length)
    return `it is ${actual.length} bytes, expected ${expected.length}`;
  const [at, width, what] = field;
  return `${what} is ${fieldValue(actual, at, width, what)}, ${said} ${fieldValue(expected, at, width, what)}`;
}
