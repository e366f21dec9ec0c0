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
  const records: CsvRecord[] = [];
  let lastLine = 0;
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
      lastLine = context.lines;
      return null;
    },
    on_skip: (err) => {
      if (err?.code === 'CSV_QUOTE_NOT_CLOSED') {
        throw new AppError('validation_error', `the file is not CSV that can be read: a quote opened on line ${lastLine + 1} is never closed`, 'file');
      }
      const lines = typeof err?.lines === 'number' ? err.lines : lastLine + 1;
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
