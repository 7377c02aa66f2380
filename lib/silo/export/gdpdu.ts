// index.xml and its DTD: the export's two tables described in the GDPdU "Beschreibungsstandard"
// (the description standard German tax audit software such as IDEA reads), so an auditor imports
// entries.csv and files.csv without configuring anything. index.xml is valid against the DTD
// (xmllint --dtdvalid in export.test.ts).
import type { Column, Table } from './tables';

export const DTD_NAME = 'gdpdu-01-09-2004.dtd';

/**
 * The standard's DTD, version 1.5 of 2004-09-01 (the element declarations as the BMF/AWV publish
 * them, Media's made deterministic; the explanatory comments of the published file are shortened here).
 */
export const GDPDU_DTD = `<?xml version="1.0" encoding="UTF-8"?>
<!-- GDPdU Beschreibungsstandard, DTD version 1.5 (01-09-2004): index.xml describes the tables of
     a data medium handed to a tax auditor. Element declarations as published, comments shortened,
     and one rewritten: Media's published model (Name, Command*, Table*, Command*, AcceptNoTables?)
     is not deterministic, which XML 1.0 requires of a DTD (xmllint refuses it); the model below
     accepts exactly the same documents. -->

<!-- Simple types -->
<!ELEMENT Version (#PCDATA)>
<!ELEMENT Location (#PCDATA)>
<!ELEMENT Comment (#PCDATA)>
<!ELEMENT Length (#PCDATA)>
<!ELEMENT References (#PCDATA)>
<!ELEMENT From (#PCDATA)>
<!ELEMENT To (#PCDATA)>
<!ELEMENT AcceptNoTables (#PCDATA)>
<!ELEMENT Alias (From, To)>
<!ELEMENT MaxLength (#PCDATA)>
<!ELEMENT TextEncapsulator (#PCDATA)>
<!ELEMENT Accuracy (#PCDATA)>
<!ELEMENT ImpliedAccuracy (#PCDATA)>
<!ELEMENT Format (#PCDATA)>
<!ELEMENT DecimalSymbol (#PCDATA)>
<!ELEMENT DigitGroupingSymbol (#PCDATA)>
<!ELEMENT Command (#PCDATA)>
<!-- relative URLs only, e.g. data/Accounts.dat -->
<!ELEMENT URL (#PCDATA)>
<!ELEMENT Description (#PCDATA)>
<!ELEMENT Name (#PCDATA)>
<!ELEMENT Epoch (#PCDATA)>
<!-- defaults: ColumnDelimiter ';', RecordDelimiter CRLF -->
<!ELEMENT ColumnDelimiter (#PCDATA)>
<!ELEMENT RecordDelimiter (#PCDATA)>
<!ELEMENT SkipNumBytes (#PCDATA)>

<!-- Complex types -->
<!ELEMENT Extension (Name, URL)>
<!ELEMENT Range (From, (To | Length)?)>
<!ELEMENT FixedRange (From, (To | Length))>
<!ELEMENT DataSet (Extension*, Version, DataSupplier?, Command*, Media+, Command*)>
<!ELEMENT AlphaNumeric EMPTY>
<!ELEMENT Date (Format?)>
<!ELEMENT Numeric ((ImpliedAccuracy | Accuracy)?)>
<!ELEMENT ANSI EMPTY>
<!ELEMENT Macintosh EMPTY>
<!ELEMENT OEM EMPTY>
<!ELEMENT UTF16 EMPTY>
<!ELEMENT UTF7 EMPTY>
<!ELEMENT UTF8 EMPTY>
<!ELEMENT FixedLength ((Length | RecordDelimiter)?, ((FixedPrimaryKey+, FixedColumn*) | (FixedColumn+)), ForeignKey*)>
<!ELEMENT FixedColumn (Name, Description?, (Numeric | AlphaNumeric | Date), Map*, FixedRange)>
<!ELEMENT FixedPrimaryKey (Name, Description?, (Numeric | AlphaNumeric | Date), Map*, FixedRange)>
<!ELEMENT VariableLength (ColumnDelimiter?, RecordDelimiter?, TextEncapsulator?, ((VariablePrimaryKey+, VariableColumn*) | (VariableColumn+)), ForeignKey*)>
<!ELEMENT VariableColumn (Name, Description?, (Numeric | (AlphaNumeric, MaxLength?) | Date), Map*)>
<!ELEMENT VariablePrimaryKey (Name, Description?, (Numeric | (AlphaNumeric, MaxLength?) | Date), Map*)>
<!ELEMENT DataSupplier (Name, Location, Comment)>
<!ELEMENT Media (Name, Command*, (Table+, Command*)?, AcceptNoTables?)>
<!ELEMENT Table (URL, Name?, Description?, Validity?, (ANSI | Macintosh | OEM | UTF16 | UTF7 | UTF8)?, (DecimalSymbol, DigitGroupingSymbol)?, SkipNumBytes?, Range?, Epoch?, (VariableLength | FixedLength))>
<!ELEMENT ForeignKey (Name+, References, Alias*)>
<!ELEMENT Map (Description?, From, To)>
<!ELEMENT Validity (Range, Format?)>
`;

// XML 1.0 cannot hold most control characters, even escaped: they are dropped.
const esc = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

const el = (name: string, value: string) => `<${name}>${esc(value)}</${name}>`;

/** DD.MM.YYYY, the standard's default date format, of a YYYY-MM-DD day. */
const germanDay = (day: string) => day.split('-').reverse().join('.');

function columnXml<R>(c: Column<R>, primary: boolean): string {
  const tag = primary ? 'VariablePrimaryKey' : 'VariableColumn';
  const type = c.type === 'Date' ? '<Date><Format>YYYY-MM-DD</Format></Date>' : `<${c.type}/>`;
  return `        <${tag}>${el('Name', c.name)}${el('Description', c.description)}${type}</${tag}>`;
}

// biome-ignore lint/suspicious/noExplicitAny: tables of different row types side by side
function tableXml(t: Table<any>, period: { from: string; to: string }): string {
  return [
    '    <Table>',
    `      ${el('URL', t.url)}`,
    `      ${el('Name', t.name)}`,
    `      ${el('Description', t.description)}`,
    `      <Validity><Range>${el('From', germanDay(period.from))}${el('To', germanDay(period.to))}</Range>${el('Format', 'DD.MM.YYYY')}</Validity>`,
    '      <UTF8/>',
    '      <SkipNumBytes>3</SkipNumBytes>', // the UTF-8 byte order mark
    '      <Range><From>2</From></Range>', // the header row
    '      <VariableLength>',
    '        <ColumnDelimiter>,</ColumnDelimiter>',
    '        <RecordDelimiter>&#13;&#10;</RecordDelimiter>',
    '        <TextEncapsulator>"</TextEncapsulator>',
    ...t.columns.map((c, i) => columnXml(c, i === 0)),
    ...(t.foreignKey
      ? [`        <ForeignKey>${el('Name', t.foreignKey.column)}${el('References', t.foreignKey.references)}</ForeignKey>`]
      : []),
    '      </VariableLength>',
    '    </Table>',
  ].join('\n');
}

export interface IndexXmlOptions {
  /** the workspace */
  supplier: string;
  /** where the data comes from (the instance's address) */
  location: string;
  comment: string;
  period: { from: string; to: string };
  // biome-ignore lint/suspicious/noExplicitAny: tables of different row types side by side
  tables: Table<any>[];
}

export function indexXml(o: IndexXmlOptions): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<!DOCTYPE DataSet SYSTEM "${DTD_NAME}">`,
    '<DataSet>',
    '  <Version>1.0</Version>',
    `  <DataSupplier>${el('Name', o.supplier)}${el('Location', o.location)}${el('Comment', o.comment)}</DataSupplier>`,
    '  <Media>',
    `    ${el('Name', `Silo export ${o.period.from} to ${o.period.to}`)}`,
    ...o.tables.map((t) => tableXml(t, o.period)),
    '  </Media>',
    '</DataSet>',
    '',
  ].join('\n');
}
