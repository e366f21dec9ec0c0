/**
 * A CSV statement read end to end: records, layout, the user's corrections,
 * rows, their order and the balance proof. Lines above the header and blank
 * lines are ignored (counted, never rows); every other line below the header
 * is a data row that is either read or rejected.
 */
import { AppError } from '../../errors.js';
import { noBalanceProof, proveRunningBalance, rowOrderOf } from './balance-proof.js';
import { checkSchema, correctSchema } from './column-mapping.js';
import { isBlank, readCsvRecords, sniffDelimiter } from '../../tabular/csv-records.js';
import { dataRecords, dateFormatOf, detectLayout } from './detect-layout.js';
import { parseRows, type DataRecord, type MoneyColumns } from './parse-rows.js';
import { bankPresets } from './presets.js';
import type { SchemaCorrection, StatementReading, StatementSchema } from './types.js';

/** The skipped columns headed Currency (any layout), and the fee and state columns a preset names (Revolut's Fee and State). */
function moneyColumns(header: readonly string[], schema: StatementSchema): MoneyColumns {
  const skipped = (name: string): number | null => {
    const i = header.findIndex((cell, at) => cell.trim().toLowerCase() === name.toLowerCase() && schema.columnMapping[String(at)] === 'skip');
    return i < 0 ? null : i;
  };
  const preset = bankPresets.find((p) => p.name === schema.detectedPreset);
  const money = preset !== undefined && 'money' in preset ? preset.money : undefined;
  const state = money === undefined ? null : skipped(money.state);
  return {
    currency: skipped('currency'),
    fee: money === undefined ? null : skipped(money.fee),
    state: money === undefined || state === null ? null : { column: state, completed: money.completed },
  };
}

export function readCsvStatement(text: string, filename: string | undefined, correction: SchemaCorrection): StatementReading {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') throw new AppError('validation_error', 'the file is empty', 'file');
  if (correction.hasHeader !== undefined && typeof correction.hasHeader !== 'boolean')
    throw new AppError('validation_error', 'hasHeader must be true or false', 'hasHeader');
  const delimiter = sniffDelimiter(body);
  const records = readCsvRecords(text, delimiter);
  const layout = detectLayout(records, delimiter, { filename, hasHeader: correction.hasHeader });
  let schema: StatementSchema;
  if (Object.values(correction).some((v) => v !== undefined)) {
    const data = dataRecords(records, layout.headerAt);
    schema = correctSchema(layout.schema, correction, layout.width, (mapping) => dateFormatOf(data, mapping));
  } else {
    checkSchema(layout.schema, layout.width, true);
    schema = layout.schema;
  }
  let ignored = 0;
  const data: DataRecord[] = [];
  records.forEach((record, i) => {
    if (layout.headerAt !== null && i <= layout.headerAt) {
      if (i < layout.headerAt) ignored++;
    } else if (isBlank(record)) {
      ignored++;
    } else {
      data.push({ ...record, rowIndex: data.length + 1 });
    }
  });
  const { rows, rejected } = parseRows(data, schema, layout.width, moneyColumns(layout.headerAt === null ? [] : records[layout.headerAt]!.cells, schema));
  const rowOrder = rowOrderOf(rows);
  const hasBalance = Object.values(schema.columnMapping).includes('balance');
  const dates = rows.map((r) => r.date).sort();
  return {
    schema,
    totalRows: data.length,
    rows,
    rejected,
    ignored,
    rowOrder,
    balanceProof: hasBalance ? proveRunningBalance(rows, rowOrder) : noBalanceProof,
    dateRange: dates.length === 0 ? null : { from: dates[0]!, to: dates.at(-1)! },
  };
}
