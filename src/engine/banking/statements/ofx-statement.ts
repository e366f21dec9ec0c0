/**
 * OFX and QFX statements (SGML OFX 1, as UK banks export it, and XML OFX 2)
 * read through ofx-js into the rows a CSV statement gives: date from
 * DTPOSTED, amount from TRNAMT (signed as the account holder sees it, as
 * OFX defines it), description from NAME and MEMO, reference from CHECKNUM
 * or FITID, and the ledger balance as the closing balance.
 */
import { parseSync } from 'ofx-js';
import { AppError } from '../../errors.js';
import { parseAmountText } from '../../tabular/amount-text.js';
import { ledgerBalanceProof, noBalanceProof, rowOrderOf } from './balance-proof.js';
import { parseDateAs } from '../../tabular/date-formats.js';
import { ofxFingerprint } from './fingerprint.js';
import type { RejectedRow, StatementReading, StatementRow, StatementSchema } from './types.js';

export function isOfx(text: string, filename: string | undefined): boolean {
  if (filename && /\.(ofx|qfx)$/i.test(filename)) return true;
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 200)
    .toUpperCase();
  return start.startsWith('OFXHEADER') || start.startsWith('<OFX>') || (start.startsWith('<?XML') && text.slice(0, 1000).toUpperCase().includes('OFX'));
}

/**
 * ofx-js turns SGML into XML with a regular expression whose time doubles
 * with each letter of a tag name (`<([A-Z0-9_]*)+\.+…`): a 30-letter tag
 * takes seconds, a 40-letter one hours. OFX's longest element name has 18
 * letters, so a file with a longer one, or with more tag letters in all than
 * a large real statement, is refused before ofx-js sees it.
 */
const longestTag = 20;
const tagWork = 2 ** 25;

function guardSgml(text: string): void {
  let work = 0;
  for (const m of text.matchAll(/<([A-Z0-9_]+)/g)) {
    const length = m[1]!.length;
    if (length > longestTag) refuse(`the OFX file has a tag <${m[1]!.slice(0, 30)}…> longer than any OFX element`);
    work += 2 ** length;
    if (work > tagWork) refuse('the OFX file has more tags than acct reads in one statement: export a shorter period');
  }
}

function refuse(message: string): never {
  throw new AppError('validation_error', message, 'file');
}

type Node = Readonly<Record<string, unknown>>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const child = (node: unknown, key: string): unknown => (isNode(node) ? node[key] : undefined);
const text = (node: unknown, key: string): string => {
  const v = child(node, key);
  return typeof v === 'string' ? v.trim() : '';
};
const many = (v: unknown): readonly unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function statementOf(ofx: unknown): { statement: Node; kind: 'BANK' | 'CREDITCARD' } {
  const found = [
    ...many(child(child(ofx, 'BANKMSGSRSV1'), 'STMTTRNRS')).map((r) => ({ statement: child(r, 'STMTRS'), kind: 'BANK' as const })),
    ...many(child(child(ofx, 'CREDITCARDMSGSRSV1'), 'CCSTMTTRNRS')).map((r) => ({ statement: child(r, 'CCSTMTRS'), kind: 'CREDITCARD' as const })),
  ].filter((s): s is { statement: Node; kind: 'BANK' | 'CREDITCARD' } => isNode(s.statement));
  if (found.length === 0) refuse('the OFX file holds no bank or credit-card statement');
  if (found.length > 1) refuse(`the OFX file holds ${found.length} statements; export one account at a time`);
  return found[0]!;
}

/** DTPOSTED is YYYYMMDD, perhaps followed by a time and zone ("20240115120000.000[0:GMT]"); the date is the bank's own day. */
const ofxDate = (value: string): string | null => parseDateAs(value.slice(0, 8), 'YYYYMMDD');

/** 1-based line of each <STMTTRN> in the text, for messages. */
function transactionLines(textOfFile: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let from = 0;
  for (const m of textOfFile.matchAll(/<STMTTRN>/gi)) {
    for (let i = from; i < m.index; i++) if (textOfFile.charCodeAt(i) === 10) line++;
    from = m.index;
    lines.push(line);
  }
  return lines;
}

function readTransaction(trn: unknown, rowIndex: number, line: number): StatementRow | RejectedRow {
  const posted = text(trn, 'DTPOSTED');
  const date = ofxDate(posted);
  const amountText = text(trn, 'TRNAMT');
  const amount = amountText === '' ? null : parseAmountText(amountText);
  const name = text(trn, 'NAME');
  const memo = text(trn, 'MEMO');
  const description = [...new Set([name, memo].filter((v) => v !== ''))].join(' ').replace(/\s+/g, ' ');
  const fitid = text(trn, 'FITID');
  const reference = text(trn, 'CHECKNUM') || fitid || null;
  const read = { date, description: description === '' ? null : description, reference, amount, balance: null };
  if (date === null)
    return { rowIndex, line, reason: posted === '' ? 'the transaction has no DTPOSTED' : `DTPOSTED ${JSON.stringify(posted)} is not a date`, read };
  if (amount === null) return { rowIndex, line, reason: `TRNAMT ${JSON.stringify(amountText)} is not an amount`, read };
  return { rowIndex, line, date, description, reference, bankId: fitid === '' ? null : fitid, amount, balance: null };
}

export function readOfxStatement(fileText: string): StatementReading {
  // ofx-js splits the file at "<OFX>" exactly and reads a file without one as an empty statement.
  if (!fileText.includes('<OFX>')) refuse('the file is not OFX that can be read: it has no <OFX> element');
  guardSgml(fileText);
  let parsed: unknown;
  try {
    parsed = parseSync(fileText.replace(/^\uFEFF/, '')).OFX;
  } catch (err) {
    refuse(`the file is not OFX that can be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { statement, kind } = statementOf(parsed);
  const currency = text(statement, 'CURDEF');
  if (currency !== '' && currency.toUpperCase() !== 'GBP') refuse(`the statement is in ${currency}; acct keeps books in GBP`);
  const lines = transactionLines(fileText);
  const rows: StatementRow[] = [];
  const rejected: RejectedRow[] = [];
  many(child(child(statement, 'BANKTRANLIST'), 'STMTTRN')).forEach((trn, i) => {
    const read = readTransaction(trn, i + 1, lines[i] ?? 0);
    if ('reason' in read) rejected.push(read);
    else rows.push(read);
  });
  const ledgerText = text(child(statement, 'LEDGERBAL'), 'BALAMT');
  const ledger = ledgerText === '' ? null : parseAmountText(ledgerText);
  if (ledgerText !== '' && ledger === null) refuse(`LEDGERBAL ${JSON.stringify(ledgerText)} is not an amount`);
  const schema: StatementSchema = {
    format: 'OFX',
    detectedPreset: null,
    fingerprint: ofxFingerprint(kind),
    provenance: 'LOCAL',
    amountModel: 'SIGNED_SINGLE',
    dateFormat: 'YYYYMMDD',
    columnMapping: {},
    hasHeader: false,
    delimiter: '',
  };
  const dates = rows.map((r) => r.date).sort();
  return {
    schema,
    totalRows: rows.length + rejected.length,
    rows,
    rejected,
    ignored: 0,
    rowOrder: rowOrderOf(rows),
    balanceProof: ledger === null ? noBalanceProof : ledgerBalanceProof(rows, ledger),
    dateRange: dates.length === 0 ? null : { from: dates[0]!, to: dates.at(-1)! },
  };
}
