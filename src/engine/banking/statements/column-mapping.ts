/**
 * A user's remap over the detected schema, and the check every schema
 * passes before rows are read: at least one date column, and an amount
 * column or both a debit and a credit column (gap-facts 2.11). A schema that
 * fails is a 400 validation_error naming the field to correct.
 */
import { AppError } from '../../errors.js';
import { dateFormatNames } from '../../tabular/date-formats.js';
import { amountModels, columnRoles, type AmountModel, type ColumnMapping, type ColumnRole, type SchemaCorrection, type StatementSchema } from './types.js';

const singleRoles: readonly ColumnRole[] = ['amount', 'debit', 'credit', 'balance', 'indicator'];

function refuse(message: string, field: string): never {
  throw new AppError('validation_error', message, field);
}

function checkMappingShape(mapping: unknown, width: number): ColumnMapping {
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping))
    refuse('columnMapping must map column numbers ("0", "1" …) to roles', 'columnMapping');
  for (const [column, role] of Object.entries(mapping)) {
    if (!/^(0|[1-9]\d*)$/.test(column) || Number(column) >= width) {
      refuse(`columnMapping names column ${column}, but the file's columns are 0 to ${width - 1}`, 'columnMapping');
    }
    if (!columnRoles.includes(role as ColumnRole))
      refuse(`columnMapping gives column ${column} the role ${String(role)}; roles are ${columnRoles.join(', ')}`, 'columnMapping');
  }
  return mapping as ColumnMapping;
}

/** Refuses a schema rows cannot be read through; `detected` says whether the user or detection is to blame, for the message. */
export function checkSchema(schema: StatementSchema, width: number, detected: boolean): void {
  checkMappingShape(schema.columnMapping, width);
  const roles = Object.values(schema.columnMapping);
  const count = (role: ColumnRole): number => roles.filter((r) => r === role).length;
  const advice = detected ? ': acct could not tell from the file, so give a columnMapping' : '';
  if (count('date') === 0) refuse(`columnMapping needs a date column${advice}`, 'columnMapping');
  if (count('amount') === 0 && (count('debit') === 0 || count('credit') === 0)) {
    refuse(`columnMapping needs an amount column, or both a debit and a credit column${advice}`, 'columnMapping');
  }
  const twice = singleRoles.find((role) => count(role) > 1);
  if (twice) refuse(`columnMapping gives the role ${twice} to ${count(twice)} columns; one is allowed`, 'columnMapping');
  if (!amountModels.includes(schema.amountModel)) refuse(`amountModel must be one of ${amountModels.join(', ')}`, 'amountModel');
  if (count('indicator') > 0) {
    if (schema.amountModel === 'DUAL_COL_DR_CR' || count('amount') === 0)
      refuse('columnMapping: an indicator column signs a single amount column; with debit and credit columns it has nothing to sign', 'columnMapping');
    if (schema.amountModel === 'SIGN_FLIPPER')
      refuse('amountModel SIGN_FLIPPER signs the amount column itself, and the indicator column signs it too: use SIGNED_SINGLE', 'amountModel');
  }
  if (schema.amountModel === 'DUAL_COL_DR_CR' ? count('debit') === 0 || count('credit') === 0 : count('amount') === 0) {
    refuse(
      `amountModel ${schema.amountModel} needs ${schema.amountModel === 'DUAL_COL_DR_CR' ? 'a debit and a credit column' : 'an amount column'} in columnMapping`,
      'amountModel',
    );
  }
  if (!dateFormatNames.includes(schema.dateFormat)) refuse(`dateFormat must be one of ${dateFormatNames.join(', ')}`, 'dateFormat');
}

function amountModelFor(mapping: ColumnMapping, detected: AmountModel): AmountModel {
  const roles = Object.values(mapping);
  if (roles.includes('amount')) return detected === 'DUAL_COL_DR_CR' || roles.includes('indicator') ? 'SIGNED_SINGLE' : detected;
  return roles.includes('debit') && roles.includes('credit') ? 'DUAL_COL_DR_CR' : detected;
}

/**
 * The detected schema with the user's corrections over it: a columnMapping
 * replaces the detected one whole (columns it leaves out are skipped); an
 * amountModel or dateFormat left out is worked out again for the new
 * mapping (`dateFormatFor` reads the new date column's values).
 */
export function correctSchema(
  detected: StatementSchema,
  correction: SchemaCorrection,
  width: number,
  dateFormatFor: (mapping: ColumnMapping) => string | null,
): StatementSchema {
  const mapping = correction.columnMapping === undefined ? detected.columnMapping : checkMappingShape(correction.columnMapping, width);
  const corrected: StatementSchema = {
    ...detected,
    provenance: 'USER_CORRECTED',
    columnMapping: mapping,
    amountModel: correction.amountModel ?? amountModelFor(mapping, detected.amountModel),
    dateFormat: correction.dateFormat ?? (correction.columnMapping === undefined ? detected.dateFormat : (dateFormatFor(mapping) ?? detected.dateFormat)),
  };
  checkSchema(corrected, width, false);
  return corrected;
}
