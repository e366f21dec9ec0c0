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

export function isDateProp(prop: JsonSchema | undefined): boolean {
  if (!prop) return false;
  return prop['format'] === 'date' || (prop.anyOf ?? []).some(isDateProp);
}

/** A date flag's help: the words it takes. */
export function dateHelp(field: string): string {
  const closing = ranges.find(([, b]) => b === field);
  if (closing) return `as --${flagNames[closing[0]] ?? closing[0].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} takes; a period gives its last day`;
  if (asOfFields.has(field)) return `${periodWords}; a period gives its last day`;
  return ranges.some(([a]) => a === field) ? periodWords : 'YYYY-MM-DD, today or yesterday';
}

/** `raw` with the date words of its query and body read as dates, and the reports' default ranges. */
export async function expandDates(cli: Cli, op: Operation, raw: RawInput, named: (field: string) => string): Promise<RawInput> {
  let yearStart: string | undefined;
  const fiscalYearStart = async (): Promise<string> => (yearStart ??= (await loadOrganisation(orgOf(await cli.ctx()).db)).fiscal_year_start);
  const today = todayOf(cli.clock);

  const expand = async (values: Record<string, unknown>, schema: JsonSchema): Promise<Record<string, unknown>> => {
    const props = schema.properties ?? {};
    const out: Record<string, unknown> = { ...values };
    const periodFor = async (field: string, text: string) => {
      const period = periodOf(text, today, /fy/i.test(text) ? await fiscalYearStart() : '01-01');
      if (period === null) checkDateText(text, named(field));
      return period;
    };
    for (const [start, end] of ranges) {
      if (!isDateProp(props[start]) || !isDateProp(props[end])) continue;
      const [from, to] = [values[start], values[end]];
      if (typeof from === 'string') {
        const period = await periodFor(start, from);
        if (period) {
          out[start] = period.startDate;
          if (to === undefined) out[end] = period.endDate;
        }
      }
      if (typeof to === 'string') {
        const period = await periodFor(end, to);
        if (period) out[end] = period.endDate;
      }
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
      const period = await periodFor(field, value);
      if (period === null) continue;
      if (asOfFields.has(field)) out[field] = period.endDate;
      else if (period.startDate === period.endDate) out[field] = period.startDate;
      else throw new AppError('validation_error', `${value} is a period: ${named(field)} takes one day (YYYY-MM-DD, today or yesterday)`, named(field));
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
