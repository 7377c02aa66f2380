// The export's CSV read back (csv.ts): every record csvRecord writes, fed whole or in pieces of any
// size (a CRLF or a doubled quote split between two), parses to its fields; what RFC 4180 refuses
// is refused.
import { describe, expect, it } from 'vitest';
import { BOM, CsvReader, csvRecord, parseCsv } from './csv';

const RECORDS = [
  ['id', 'name', 'meta'],
  ['1', 'Rechnung "1", Köln', '{"a":"=HYPERLINK(\\"x\\")"}'],
  ['2', 'two\r\nlines', ''],
  ['', '', ''],
  ['3', 'cr\ralone', '"'],
  ['4', '😀,€', 'end'],
];
const TEXT = BOM + RECORDS.map(csvRecord).join('');

describe('CsvReader', () => {
  it('reads what csvRecord writes, whole', () => {
    expect(parseCsv(TEXT)).toEqual(RECORDS);
  });

  it('reads it in pieces of every size from 1 to 40 characters', () => {
    for (let size = 1; size <= 40; size++) {
      const reader = new CsvReader();
      const rows: string[][] = [];
      for (let i = 0; i < TEXT.length; i += size) rows.push(...reader.push(TEXT.slice(i, i + size)));
      reader.end();
      expect(rows, `pieces of ${size}`).toEqual(RECORDS);
    }
  });

  it('refuses a stray quote, text after a closing quote, an unclosed quote, a last record without CRLF', () => {
    expect(() => parseCsv('a"b,c\r\n')).toThrow(/quote inside an unquoted field/);
    expect(() => parseCsv('"a"b,c\r\n')).toThrow(/after a closing quote/);
    expect(() => parseCsv('"a,b\r\n')).toThrow(/not closed/);
    expect(() => parseCsv('a,b\r\nc')).toThrow(/does not end with CRLF/);
    expect(() => parseCsv('a,b\r')).toThrow(/does not end with CRLF/);
  });
});
