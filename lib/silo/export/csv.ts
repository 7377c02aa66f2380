// RFC 4180 CSV for the export's tables: UTF-8 with a byte order mark (so a spreadsheet opened by a
// double click reads UTF-8; index.xml tells audit software to skip it), CRLF records, a header row,
// a field quoted when it holds a comma, quote, CR or LF (quotes doubled).
//
// Fields are written exactly as stored, also those starting with = + - @ (which a spreadsheet may
// take for a formula): the tables are the audit data and must equal the event log and the files,
// so nothing is prefixed. verify-export counts such fields and tells the auditor to import the
// columns as text (docs/api.md, Export).

export const BOM = '\ufeff';

enum State {
  FieldStart,
  Unquoted,
  Quoted,
  AfterQuote,
}
const [QUOTE, COMMA, CR, LF] = [0x22, 0x2c, 0x0d, 0x0a];

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
  const reader = new CsvReader();
  const rows = reader.push(text);
  reader.end();
  return rows;
}

/**
 * RFC 4180 records from text given in pieces (a member read as a stream): each complete record as
 * soon as its CRLF arrives, the rest kept for the next piece. Fields are cut from the text with
 * slices, never built a character at a time (a string grown by `+=` per character is a chain of
 * one node per character until read: tens of bytes each).
 */
export class CsvReader {
  private rest = '';
  /** how far `rest` was scanned for a record's end, and the scan's state there */
  private scanned = 0;
  private state = State.FieldStart;
  private first = true;
  /** records read so far (for the errors) */
  records = 0;

  push(text: string): string[][] {
    if (this.first && text.length) {
      this.first = false;
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    this.rest += text;
    const rows: string[][] = [];
    const at = () => this.records + rows.length + 1;
    let start = 0;
    let i = this.scanned;
    for (; i < this.rest.length; i++) {
      const ch = this.rest.charCodeAt(i);
      if (this.state === State.Quoted) {
        if (ch === QUOTE) this.state = State.AfterQuote;
        continue;
      }
      if (ch === QUOTE) {
        if (this.state === State.FieldStart) this.state = State.Quoted;
        else if (this.state === State.AfterQuote)
          this.state = State.Quoted; // a doubled quote
        else throw new Error(`a quote inside an unquoted field (record ${at()})`);
      } else if (ch === COMMA) this.state = State.FieldStart;
      else if (ch === CR && i + 1 === this.rest.length)
        break; // its LF may come with the next piece
      else if (ch === CR && this.rest.charCodeAt(i + 1) === LF) {
        rows.push(this.record(this.rest.slice(start, i)));
        this.state = State.FieldStart;
        start = i + 2;
        i++;
      } else if (this.state === State.AfterQuote) throw new Error(`text after a closing quote (record ${at()})`);
      else this.state = State.Unquoted;
    }
    this.rest = this.rest.slice(start);
    this.scanned = i - start;
    return rows;
  }

  /** Throws if the text ended inside a record. */
  end(): void {
    if (this.state === State.Quoted) throw new Error('a quoted field is not closed');
    if (this.rest !== '') throw new Error('the last record does not end with CRLF');
  }

  /** One record's fields (its text without the CRLF, its quotes balanced). */
  private record(text: string): string[] {
    this.records++;
    const fields: string[] = [];
    let i = 0;
    for (;;) {
      if (text.charCodeAt(i) === 0x22) {
        let field = '';
        let from = i + 1;
        for (;;) {
          const q = text.indexOf('"', from);
          field += text.slice(from, q);
          if (text.charCodeAt(q + 1) === 0x22) {
            field += '"';
            from = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
        fields.push(field);
        if (i < text.length && text.charCodeAt(i) !== 0x2c) throw new Error(`text after a closing quote (record ${this.records})`);
      } else {
        const comma = text.indexOf(',', i);
        const field = text.slice(i, comma < 0 ? text.length : comma);
        if (field.includes('"')) throw new Error(`a quote inside an unquoted field (record ${this.records})`);
        fields.push(field);
        i = comma < 0 ? text.length : comma;
      }
      if (i >= text.length) return fields;
      i++; // the comma
    }
  }
}
