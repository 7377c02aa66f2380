// RFC 4180 CSV for the export's tables: UTF-8 with a byte order mark (so a spreadsheet opened by a
// double click reads UTF-8; index.xml tells audit software to skip it), CRLF records, a header row,
// a field quoted when it holds a comma, quote, CR or LF (quotes doubled).
//
// Fields are written exactly as stored, also those starting with = + - @ (which a spreadsheet may
// take for a formula): the tables are the audit data and must equal the event log and the files,
// so nothing is prefixed. verify-export counts such fields and tells the auditor to import the
// columns as text (docs/api.md, Export).

export const BOM = '\ufeff';

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export const csvRecord = (fields: readonly string[]) => `${fields.map(csvField).join(',')}\r\n`;

/** Whether a spreadsheet might read `value` as a formula. */
export const looksLikeFormula = (value: string) => /^[=+\-@\t\r]/.test(value);

/**
 * Parses RFC 4180 text (what csvRecord writes; a leading BOM is dropped). Throws on a quote where
 * none may be, or an unclosed quoted field.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  const endField = () => {
    row.push(field);
    field = '';
    wasQuoted = false;
  };
  for (let i = text.startsWith(BOM) ? 1 : 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (ch === ',') endField();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else if (wasQuoted) throw new Error(`text after a closing quote (record ${rows.length + 1})`);
    else if (ch === '"' && field === '') {
      quoted = true;
      wasQuoted = true;
    } else if (ch === '"') throw new Error(`a quote inside an unquoted field (record ${rows.length + 1})`);
    else field += ch;
  }
  if (quoted) throw new Error('a quoted field is not closed');
  if (field !== '' || row.length) throw new Error('the last record does not end with CRLF');
  return rows;
}
