/**
 * Date flags of generated commands as people write them (engine/date-words.ts):
 * a period word in the first flag of a range (--from 2026-Q3) gives its
 * first day, and its last day to the second flag when that is not given;
 * in the second flag or an as-of flag, its last day; a flag of one day
 * takes today and yesterday. A date written day first or that does not
 * exist is refused with a hint before the operation runs. A report whose
 * range is required and not given covers the financial year to date, and
 * a required as-of date is today, as the trial balance already defaults;
 * a required range given only its first day runs to today, only its last
 * day from the start of that day's financial year.
 */
import { today as todayOf } from '../engine/clock.js';
import { AppError } from '../engine/errors.js';
import { checkDateText, periodOf, periodWords } from '../engine/date-words.js';
import type { DateRange } from '../engine/dates.js';
import { checkRange, isoDate } from '../engine/schema.js';
import { jsonSchemaOf, type JsonSchema, type RawInput } from '../engine/input.js';
import { orgOf, type Operation } from '../engine/operation.js';
import { loadOrganisation } from '../engine/organisation/organisation.js';
import type { Cli } from './context.js';
import { flagNames } from './command.js';

/** The flags that open and close a range, by field. */
const ranges: readonly (readonly [string, string])[] = [
  ['from', 'to'],
  ['fromDate', 'toDate'],
  ['startDate', 'endDate'],
  ['periodStart', 'periodEnd'],
];
const asOfFields = new Set(['asOf', 'asOfDate']);
/** What a flag of one day takes. */
const oneDay = 'YYYY-MM-DD, today or yesterday';

export function isDateProp(prop: JsonSchema | undefined): boolean {
  if (!prop) return false;
  return prop['format'] === 'date' || (prop.anyOf ?? []).some(isDateProp);
}

/** A date flag's help: the words it takes. */
export function dateHelp(field: string): string {
  const closing = ranges.find(([, b]) => b === field);
  if (closing) return `as --${flagNames[closing[0]] ?? closing[0].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} takes; a period gives its last day`;
  if (asOfFields.has(field)) return `${periodWords}; a period gives its last day`;
  return ranges.some(([a]) => a === field) ? periodWords : oneDay;
}

/**
 * The period a date flag's text names (2026-Q3, fy2025, this-month…), or
 * null for a day; a day written day first or not real, or text that is no
 * date, is refused naming `flag` and what it takes (`accepts`: the period
 * words unless told). `null` (which clears a nullable date) is left for the schema.
 */
type PeriodReader = (flag: string, text: string, accepts?: string) => Promise<DateRange | null>;

function periodReader(cli: Cli): PeriodReader {
  let yearStart: string | undefined;
  const fiscalYearStart = async (): Promise<string> => (yearStart ??= (await loadOrganisation(orgOf(await cli.ctx()).db)).fiscal_year_start);
  const today = todayOf(cli.clock);
  return async (flag, text, accepts) => {
    const period = periodOf(text, today, /fy/i.test(text) ? await fiscalYearStart() : '01-01');
    if (period === null && text !== 'null') checkDateText(text, flag, accepts);
    return period;
  };
}

/** A range's ends as typed, periods read: a period opening it gives its first day (and its last, when nothing closes it); one closing it, its last day. */
async function readRange(from: unknown, to: unknown, [fromFlag, toFlag]: readonly [string, string], periodFor: PeriodReader): Promise<[unknown, unknown]> {
  let [start, end] = [from, to];
  if (typeof from === 'string') {
    const period = await periodFor(fromFlag, from);
    if (period) {
      start = period.startDate;
      if (to === undefined) end = period.endDate;
    }
  }
  if (typeof to === 'string') {
    const period = await periodFor(toFlag, to);
    if (period) end = period.endDate;
  }
  return [start, end];
}

/** A flag of one day as typed: a word for one day (today, yesterday) gives it, a longer period is refused naming `flag`, a date is left for the schema. */
async function readDay(periodFor: PeriodReader, flag: string, text: string): Promise<string> {
  const period = await periodFor(flag, text, oneDay);
  if (period === null) return text;
  if (period.startDate === period.endDate) return period.startDate;
  throw new AppError('validation_error', `${text} is a period: ${flag} takes one day (${oneDay})`, flag);
}

/** The date of a hand-written command (acct post's <date>) read as a generated command reads a flag of one day. */
export const typedDay = (cli: Cli, text: string, flag: string): Promise<string> => readDay(periodReader(cli), flag, text);

/** The --from and --to of a hand-written command (acct export) read as a generated command reads a range; 400 naming the flag. */
export async function typedRange(cli: Cli, from: string | undefined, to: string | undefined): Promise<{ from?: string; to?: string }> {
  const flags = ['--from', '--to'] as const;
  const ends = await readRange(from, to, flags, periodReader(cli));
  const out: { from?: string; to?: string } = {};
  for (const [i, end] of ends.entries()) {
    if (typeof end !== 'string') continue;
    if (!isoDate().safeParse(end).success) {
      throw new AppError('validation_error', `${flags[i]} takes ${periodWords}; not ${end}`, flags[i]);
    }
    out[i === 0 ? 'from' : 'to'] = end;
  }
  checkRange(out.from, out.to, flags);
  return out;
}

/** `raw` with the date words of its query and body read as dates, and the reports' default ranges. */
export async function expandDates(cli: Cli, op: Operation, raw: RawInput, named: (field: string) => string): Promise<RawInput> {
  let yearStart: string | undefined;
  const fiscalYearStart = async (): Promise<string> => (yearStart ??= (await loadOrganisation(orgOf(await cli.ctx()).db)).fiscal_year_start);
  const today = todayOf(cli.clock);
  const reader = periodReader(cli);

  const expand = async (values: Record<string, unknown>, schema: JsonSchema): Promise<Record<string, unknown>> => {
    const props = schema.properties ?? {};
    const out: Record<string, unknown> = { ...values };
    const periodFor = (field: string, text: string) => reader(named(field), text);
    for (const [start, end] of ranges) {
      if (!isDateProp(props[start]) || !isDateProp(props[end])) continue;
      const [from, to] = [values[start], values[end]];
      const [opened, closed] = await readRange(from, to, [start, end], periodFor);
      if (opened !== undefined) out[start] = opened;
      if (closed !== undefined) out[end] = closed;
      const required = new Set(schema.required ?? []);
      if (from === undefined && to === undefined && required.has(start) && required.has(end)) {
        // The financial year to date, as accounting software opens a report.
        const year = periodOf('this-fy', today, await fiscalYearStart());
        out[start] = year?.startDate;
        out[end] = today;
      } else if (out[end] === undefined && typeof out[start] === 'string' && required.has(end)) {
        // A day to open the range and nothing to close it: up to today.
        out[end] = today;
      } else if (out[start] === undefined && typeof out[end] === 'string' && required.has(start)) {
        // A day to close the range and nothing to open it: from the start of that day's financial year.
        out[start] = periodOf('this-fy', out[end], await fiscalYearStart())?.startDate;
      }
    }
    for (const [field, value] of Object.entries(values)) {
      if (!isDateProp(props[field]) || typeof value !== 'string' || out[field] !== value) continue;
      if (ranges.some(([a, b]) => a === field || b === field)) continue;
      if (asOfFields.has(field)) out[field] = (await periodFor(field, value))?.endDate ?? value;
      else out[field] = await readDay(reader, named(field), value);
    }
    for (const field of asOfFields) {
      if (isDateProp(props[field]) && values[field] === undefined && (schema.required ?? []).includes(field)) out[field] = today;
    }
    return out;
  };

  const query = await expand(raw.query, jsonSchemaOf(op.schemas.query));
  const body =
    op.schemas.body && raw.body !== null && typeof raw.body === 'object' && !Array.isArray(raw.body)
      ? await expand(raw.body as Record<string, unknown>, jsonSchemaOf(op.schemas.body))
      : raw.body;
  return { params: raw.params, query, body };
}
