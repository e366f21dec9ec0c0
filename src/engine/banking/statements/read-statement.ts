/**
 * The one way in to reading a bank statement: CSV (any UK bank's layout,
 * detected or remapped by the user) or OFX/QFX, into rows in pence, rejected
 * rows with their reasons, and the balance proof; QIF is refused by name. Pure: the import
 * operations keep files, find duplicates and post on top of it.
 */
import { AppError } from '../../errors.js';
import { readCsvStatement } from './csv-statement.js';
import { isOfx, readOfxStatement } from './ofx-statement.js';
import type { SchemaCorrection, StatementReading } from './types.js';

export interface ReadStatementOptions {
  /** The uploaded file's name: .ofx/.qfx says OFX, and a bank's name in it picks between presets that share a layout (Lloyds, Halifax). */
  readonly filename?: string | undefined;
  /** The user's remap: columnMapping, amountModel, dateFormat, hasHeader; anything left out is detected. */
  readonly schema?: SchemaCorrection | undefined;
}

/** Quicken's QIF: a header line first (!Type:Bank, !Account, or Quicken's !Option: and !Clear: switches before them). */
const qifHeader = /^!(type:|account|option:|clear:)/i;

export function readStatement(text: string, options: ReadStatementOptions = {}): StatementReading {
  // Read as a CSV it would be one column of no dates, refused as a columnMapping to give: no mapping reads it.
  if (qifHeader.test(text.replace(/^\uFEFF/, '').trimStart()))
    throw new AppError(
      'validation_error',
      `${options.filename ?? 'the file'} is a QIF file (Quicken), which is not supported: acct reads CSV, OFX or QFX statements; export the statement from the bank in one of those`,
      'file',
    );
  const correction = options.schema ?? {};
  if (!isOfx(text, options.filename)) return readCsvStatement(text, options.filename, correction);
  const corrected = Object.entries(correction).find(([, v]) => v !== undefined);
  if (corrected) throw new AppError('validation_error', 'an OFX statement has no columns to remap', corrected[0]);
  return readOfxStatement(text);
}

export type * from './types.js';
