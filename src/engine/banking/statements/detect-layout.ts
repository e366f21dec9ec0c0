/**
 * A CSV statement's layout, told from its records: where the header is (or
 * that there is none), how wide a row is, what each column holds, the date
 * format, how amounts are signed, and which bank's preset it matches.
 */
import { parseAmountText } from '../../tabular/amount-text.js';
import { balanceSteps } from './balance-proof.js';
import { isIndicatorColumn, normaliseHeaderCell, roleOfHeader, rolesFromContent, rolesFromHeader } from './column-roles.js';
import { isBlank, type CsvRecord } from '../../tabular/csv-records.js';
import { detectDateFormat, looksLikeDate } from '../../tabular/date-formats.js';
import { layoutFingerprint } from './fingerprint.js';
import { bankPresets, type BankPreset } from './presets.js';
import type { AmountModel, ColumnMapping, ColumnRole, StatementSchema } from './types.js';

export interface CsvLayout {
  readonly schema: StatementSchema;
  /** Index in the records of the header row, or null. */
  readonly headerAt: number | null;
  /** Cells a data row has. */
  readonly width: number;
}

export interface LayoutHints {
  readonly filename?: string | undefined;
  /** The user's say on whether the first row is a header, over detection. */
  readonly hasHeader?: boolean | undefined;
}

/** How many of the first non-blank rows are looked at for a header: room for a few lines of account details above it. */
const headerSearch = 10;

/**
 * The header is the last row without a date above the first row with one,
 * preferring one that names at least two known columns (so that a broken
 * first data row, its date unreadable, is not taken for the header); lines
 * above it are the bank's preamble.
 */
function findHeader(records: readonly CsvRecord[], hasHeader: boolean | undefined): number | null {
  const candidates = records.flatMap((r, i) => (isBlank(r) || r.error !== null ? [] : [i])).slice(0, headerSearch);
  if (hasHeader === false) return null;
  if (hasHeader === true) return candidates[0] ?? null;
  const firstDated = candidates.findIndex((i) => records[i]!.cells.some(looksLikeDate));
  const above = firstDated < 0 ? candidates : candidates.slice(0, firstDated);
  const named = above.filter((i) => records[i]!.cells.filter((c) => roleOfHeader(c) !== 'skip').length >= 2);
  if (named.length > 0) return named.at(-1)!;
  return firstDated > 0 && records[above.at(-1)!]!.cells.length >= 2 ? above.at(-1)! : null;
}

function mostCommon(values: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = 0;
  let seen = 0;
  for (const [v, n] of counts) if (n > seen || (n === seen && v > best)) [best, seen] = [v, n];
  return best;
}

function withoutTrailingEmpty(cells: readonly string[]): readonly string[] {
  return cells.slice(0, cells.findLastIndex((c) => c !== '') + 1);
}

function matchPreset(header: readonly string[] | null, contentRoles: readonly ColumnRole[], filename: string): BankPreset | null {
  const names = new Set(header?.map(normaliseHeaderCell));
  const scored = bankPresets.flatMap((preset): { preset: BankPreset; score: number }[] => {
    if ('positions' in preset) return header === null && preset.positions.join() === contentRoles.join() ? [{ preset, score: preset.positions.length }] : [];
    const wanted = Object.keys(preset.columns).map(normaliseHeaderCell);
    return header !== null && wanted.every((n) => names.has(n)) ? [{ preset, score: wanted.length }] : [];
  });
  const top = Math.max(0, ...scored.map((s) => s.score));
  const best = scored.filter((s) => s.score === top).map((s) => s.preset);
  return best.find((p) => filename.toLowerCase().includes(p.name.toLowerCase())) ?? best[0] ?? null;
}

function presetRoles(preset: BankPreset, header: readonly string[] | null, width: number): ColumnRole[] {
  if ('positions' in preset) return [...preset.positions];
  const byName = new Map(Object.entries(preset.columns).map(([name, role]) => [normaliseHeaderCell(name), role]));
  return Array.from({ length: width }, (_, i) => byName.get(normaliseHeaderCell(header?.[i] ?? '')) ?? 'skip');
}

/**
 * A single amount column whose balance moves the other way (it falls as the
 * amounts rise) is signed money-out-positive: SIGN_FLIPPER. Without a
 * balance column nothing in the file can tell, and the model stays signed.
 */
function amountModelOf(roles: readonly ColumnRole[], data: readonly CsvRecord[]): AmountModel {
  if (!roles.includes('amount')) return roles.includes('debit') && roles.includes('credit') ? 'DUAL_COL_DR_CR' : 'SIGNED_SINGLE';
  // An indicator column signs the amounts, which carry no sign the balance could be checked against.
  if (roles.includes('indicator')) return 'SIGNED_SINGLE';
  const [amountAt, balanceAt] = [roles.indexOf('amount'), roles.indexOf('balance')];
  if (balanceAt < 0) return 'SIGNED_SINGLE';
  const read = (cells: readonly string[], i: number): number | null => (cells[i] ? parseAmountText(cells[i]) : null);
  const rows = data.map((r) => ({ amount: read(r.cells, amountAt), balance: read(r.cells, balanceAt) }));
  const plus = balanceSteps(rows, 1);
  const minus = balanceSteps(rows, -1);
  const [agree, disagree] = [Math.max(plus.oldestFirst, plus.newestFirst), Math.max(minus.oldestFirst, minus.newestFirst)];
  return disagree > agree && disagree * 2 >= rows.length - 1 ? 'SIGN_FLIPPER' : 'SIGNED_SINGLE';
}

function readable(roles: readonly ColumnRole[]): boolean {
  return roles.includes('date') && (roles.includes('amount') || (roles.includes('debit') && roles.includes('credit')));
}

export function toColumnMapping(roles: readonly ColumnRole[]): ColumnMapping {
  return Object.fromEntries(roles.map((role, i) => [String(i), role]));
}

/** The records below the header that are not blank: the rows detection learns from. */
export function dataRecords(records: readonly CsvRecord[], headerAt: number | null): readonly CsvRecord[] {
  return records.slice(headerAt === null ? 0 : headerAt + 1).filter((r) => !isBlank(r) && r.error === null);
}

/** The date format of the first date column, looking at every data row. */
export function dateFormatOf(data: readonly CsvRecord[], roles: Readonly<Record<string, ColumnRole>>, preferred?: string): string | null {
  const dateColumns = Object.entries(roles)
    .filter(([, role]) => role === 'date')
    .map(([i]) => Number(i))
    .sort((a, b) => a - b);
  const values = data.map((r) => dateColumns.map((c) => r.cells[c] ?? '').find((v) => v !== '')).filter((v): v is string => v !== undefined);
  return detectDateFormat(values, preferred);
}

/** A Type column whose every cell says Debit or Credit is the indicator beside a single amount column (when no column is headed as one). */
function withIndicator(roles: readonly ColumnRole[], data: readonly CsvRecord[]): readonly ColumnRole[] {
  if (roles.includes('indicator') || !roles.includes('amount')) return roles;
  const at = roles.findIndex((role, i) => role === 'type' && isIndicatorColumn(data.map((r) => r.cells[i] ?? '')));
  return at < 0 ? roles : roles.map((role, i) => (i === at ? 'indicator' : role));
}

export function detectLayout(records: readonly CsvRecord[], delimiter: string, hints: LayoutHints = {}): CsvLayout {
  const headerAt = findHeader(records, hints.hasHeader);
  const header = headerAt === null ? null : withoutTrailingEmpty(records[headerAt]!.cells);
  const data = dataRecords(records, headerAt);
  const width = header?.length ?? mostCommon(data.map((r) => r.cells.length));
  const headerRoles = header === null ? null : withIndicator(rolesFromHeader(header), data);
  // Header names acct does not know ("When", "Net") leave the columns to be told from their cells.
  const contentRoles =
    headerRoles !== null && readable(headerRoles)
      ? null
      : rolesFromContent(
          data.map((r) => r.cells),
          width,
        );
  const preset = matchPreset(header, contentRoles ?? [], hints.filename ?? '');
  const roles = preset ? presetRoles(preset, header, width) : (contentRoles ?? headerRoles ?? []);
  const columnMapping = toColumnMapping(roles);
  const schema: StatementSchema = {
    format: 'CSV',
    detectedPreset: preset?.name ?? null,
    fingerprint: layoutFingerprint(header, width),
    provenance: preset ? 'VERIFIED' : 'LOCAL',
    amountModel: preset?.amountModel ?? amountModelOf(roles, data),
    dateFormat: dateFormatOf(data, columnMapping, preset?.dateFormat) ?? preset?.dateFormat ?? 'DD/MM/YYYY',
    columnMapping,
    hasHeader: header !== null,
    delimiter,
  };
  return { schema, headerAt, width };
}
