/**
 * A CSV file's text (a statement, an export) as records of cells, each with the line it starts
 * on, through csv-parse: a UTF-8 BOM, CRLF or LF, quoted fields holding
 * commas or line breaks. Blank lines stay in (as one empty cell) so that they
 * can be counted, and a row with the wrong number of cells is kept for the
 * reader to reject by its row number rather than stopping the file.
 */
import { parse } from 'csv-parse/sync';
import { AppError } from '../errors.js';

export interface CsvRecord {
  readonly cells: readonly string[];
  /** 1-based line the record starts on. */
  readonly line: number;
  /** Why csv-parse could not read the record, or null. */
  readonly error: string | null;
}

export const delimiters = [',', ';', '\t', '|'] as const;

const quoted = /"(?:[^"]|"")*"/g;

/** The delimiter that splits the most of the first lines into the same number of cells (more than one). */
export function sniffDelimiter(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 30)
    .map((l) => l.replace(quoted, ''));
  let best = { delimiter: ',', agreeing: 0, cells: 0 };
  for (const delimiter of delimiters) {
    const counts = new Map<number, number>();
    for (const line of lines) {
      const n = line.split(delimiter).length - 1;
      if (n > 0) counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    for (const [n, agreeing] of counts) {
      if (agreeing > best.agreeing || (agreeing === best.agreeing && n > best.cells)) best = { delimiter, agreeing, cells: n };
    }
  }
  return best.delimiter;
}

export function isBlank(record: CsvRecord): boolean {
  return record.error === null && record.cells.every((c) => c === '');
}

/** The records of a CSV text; a quote left open to the end of the file is a 400 naming `file`. */
export function readCsvRecords(text: string, delimiter: string): readonly CsvRecord[] {
  const body = bodyStart(text, delimiter);
  if (body === null) return recordsOf(text, delimiter, 0);
  return [...recordsOf(text.slice(0, body.offset), delimiter, 0), ...recordsOf(text.slice(body.offset), delimiter, body.line)];
}

/**
 * Where the rows proper begin when an export opens with lines of another
 * shape (a title, the company's name, a date range), as the offset of that
 * line's first character and the number of lines before it; null when the
 * first line is the table's or the lines before it hold a quote (one could
 * span lines). csv-parse makes an error, with a stack, for every record whose
 * length differs from the first record's, even with relax_column_count: read
 * in one piece, an export with a title line made one for every row, a tenth
 * of a large migration's time. The opening lines are read on their own.
 */
function bodyStart(text: string, delimiter: string): { offset: number; line: number } | null {
  const starts: number[] = [];
  for (let at = 0; starts.length < 30 && at < text.length;) {
    starts.push(at);
    const end = text.indexOf('\n', at);
    if (end < 0) break;
    at = end + 1;
  }
  const cellsOf = (i: number): number => {
    const end = text.indexOf('\n', starts[i]);
    const line = text.slice(starts[i], end < 0 ? undefined : end).replace(quoted, '');
    return line.trim() === '' ? 0 : line.split(delimiter).length;
  };
  const counts = starts.map((_, i) => cellsOf(i));
  const tally = new Map<number, number>();
  for (const n of counts) if (n > 1) tally.set(n, (tally.get(n) ?? 0) + 1);
  let table = 0;
  let agreeing = 0;
  for (const [n, k] of tally) {
    if (k > agreeing || (k === agreeing && n > table)) [table, agreeing] = [n, k];
  }
  const first = counts.indexOf(table);
  if (table === 0 || first <= 0) return null;
  const offset = starts[first] as number;
  return text.slice(0, offset).includes('"') ? null : { offset, line: first };
}

function recordsOf(text: string, delimiter: string, linesBefore: number): readonly CsvRecord[] {
  const records: CsvRecord[] = [];
  let lastLine = linesBefore;
  parse(text, {
    bom: true,
    delimiter,
    // Right-trimming makes csv-parse give up on the rest of the file at `"a" ,`; cells are trimmed below instead.
    ltrim: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: false,
    skip_records_with_error: true,
    on_record: (cells: string[], context) => {
      records.push({ cells: cells.map(cleanCell), line: lastLine + 1, error: null });
      lastLine = linesBefore + context.lines;
      return null;
    },
    on_skip: (err) => {
      if (err?.code === 'CSV_QUOTE_NOT_CLOSED') {
        throw new AppError('validation_error', `the file is not CSV that can be read: a quote opened on line ${lastLine + 1} is never closed`, 'file');
      }
      const lines = typeof err?.lines === 'number' ? linesBefore + err.lines : lastLine + 1;
      records.push({ cells: [], line: lastLine + 1, error: err?.message ?? 'the row is not CSV that can be read' });
      lastLine = lines;
    },
  });
  return records;
}

/** Trims a cell; `"a,b" ` (a space after the closing quote) comes back from csv-parse with its quotes, which are taken off. */
function cleanCell(cell: string): string {
  const trimmed = cell.trim();
  if (trimmed !== cell.trimStart() && trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    return trimmed.slice(1, -1).replaceAll('""', '"');
  }
  return trimmed;
}
