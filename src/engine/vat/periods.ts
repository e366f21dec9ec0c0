/**
 * VAT periods from the organisation's stagger: quarterly (ending in the
 * chosen month and every third month after), monthly, or annual (ending in
 * the chosen month). The first period starts on the registration date, or,
 * with none set, at the start of the stagger period holding the earliest
 * VAT entry (or today). A period's key is the month it ends, YYYY-MM; its
 * return is due one calendar month and seven days after it ends (two months
 * for an annual return), as for Making Tax Digital.
 */
import { addDays, firstYear, lastYear } from '../dates.js';
import type { OrganisationTable } from '../../store/tables.js';

export interface VatPeriod {
  readonly key: string;
  readonly start: string;
  readonly end: string;
  readonly due: string;
}

type Stagger = Pick<OrganisationTable, 'vat_stagger' | 'vat_period_month'>;

const pad = (n: number) => String(n).padStart(2, '0');

/** The last day of a month (month 1-12). */
function monthEnd(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${pad(month)}-${pad(last)}`;
}

/** Whether a period ends in this month (1-12). */
function endsIn(s: Stagger, month: number): boolean {
  if (s.vat_stagger === 'monthly') return true;
  if (s.vat_stagger === 'annual') return month === s.vat_period_month;
  return (((month - s.vat_period_month) % 3) + 3) % 3 === 0;
}

/** The last day of the period holding `date`. */
export function periodEndOn(s: Stagger, date: string): string {
  let year = Number(date.slice(0, 4));
  let month = Number(date.slice(5, 7));
  while (!endsIn(s, month)) {
    month += 1;
    if (month === 13) {
      month = 1;
      year += 1;
    }
  }
  return monthEnd(year, month);
}

/** The first day of the period ending on `end`. */
function periodStartOf(s: Stagger, end: string): string {
  const months = s.vat_stagger === 'monthly' ? 1 : s.vat_stagger === 'quarterly' ? 3 : 12;
  const year = Number(end.slice(0, 4));
  const month = Number(end.slice(5, 7));
  const index = year * 12 + (month - 1) - months + 1;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}-01`;
}

function dueDate(s: Stagger, end: string): string {
  const months = s.vat_stagger === 'annual' ? 2 : 1;
  const year = Number(end.slice(0, 4));
  const index = year * 12 + Number(end.slice(5, 7)) - 1 + months;
  const next = monthEnd(Math.floor(index / 12), (index % 12) + 1);
  return s.vat_stagger === 'annual' ? next : addDays(next, 7);
}

/**
 * The final return's due date when registration ends inside a period: one
 * month and seven days after its last day (GOV.UK, Cancel your VAT
 * registration), a month end counting to the next month's end.
 */
function finalDueDate(last: string): string {
  const year = Number(last.slice(0, 4));
  const month = Number(last.slice(5, 7));
  const next = monthEnd(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1);
  const sameDay = last === monthEnd(year, month) ? next : `${next.slice(0, 8)}${last.slice(8)}`;
  return addDays(sameDay < next ? sameDay : next, 7);
}

/**
 * The period ending on `end`, the first one starting at `firstStart`; with
 * `last` (the last day registered, when registration has ended) inside it,
 * the final period, ending there and named by that month.
 */
export function periodEnding(s: Stagger, end: string, firstStart: string, last: string | null = null): VatPeriod {
  const start = periodStartOf(s, end);
  const from = start < firstStart ? firstStart : start;
  if (last !== null && last < end) return { key: last.slice(0, 7), start: from, end: last, due: finalDueDate(last) };
  return { key: end.slice(0, 7), start: from, end, due: dueDate(s, end) };
}

/** The start of the first period: the registration date, else the start of the period holding `earliest`. */
export function firstPeriodStart(s: Stagger & Pick<OrganisationTable, 'vat_registration_date'>, earliest: string): string {
  return s.vat_registration_date ?? periodStartOf(s, periodEndOn(s, earliest));
}

/** Every period from the one starting at `firstStart` to the one holding `until`, none after the one holding `lastDay` (the last day registered). */
export function periodsUntil(s: Stagger, firstStart: string, until: string, lastDay: string | null = null): VatPeriod[] {
  const periods: VatPeriod[] = [];
  let end = periodEndOn(s, firstStart);
  const to = lastDay !== null && lastDay < until ? lastDay : until;
  const last = periodEndOn(s, to < firstStart ? firstStart : to);
  for (;;) {
    periods.push(periodEnding(s, end, firstStart, lastDay));
    if (end >= last) return periods;
    end = periodEndOn(s, addDays(end, 1));
  }
}

/** The months (YYYY-MM) of `year` in which a period ends. */
export function endMonthsOf(s: Stagger, year: number): string[] {
  return Array.from({ length: 12 }, (_, i) => i + 1)
    .filter((m) => endsIn(s, m))
    .map((m) => `${year}-${pad(m)}`);
}

/** The last month (YYYY-MM) of a calendar quarter named YYYY-Qn (2026-Q1 is January to March 2026), or null for any other text. */
export function quarterEndMonth(text: string): string | null {
  const m = /^(\d{4})-Q([1-4])$/i.exec(text);
  return m ? `${m[1]}-${pad(Number(m[2]) * 3)}` : null;
}

/**
 * The period a key (YYYY-MM, the month it ends) names, or null when no
 * period ends that month: nor in a month that is not one, nor in a year the
 * books do not date (after 2999 its due date could fall in a five-digit year).
 */
export function periodOfKey(s: Stagger, key: string, firstStart: string, lastDay: string | null = null): VatPeriod | null {
  const year = Number(key.slice(0, 4));
  const month = Number(key.slice(5, 7));
  if (lastDay !== null) {
    // Registration ended: the final period is named by the month of its last day, and none follows it.
    const final = periodEnding(s, periodEndOn(s, lastDay < firstStart ? firstStart : lastDay), firstStart, lastDay);
    if (key === final.key) return final;
    if (key > final.key) return null;
  }
  if (year < firstYear || year > lastYear || month < 1 || month > 12 || !endsIn(s, month)) return null;
  const end = monthEnd(year, month);
  if (end < firstStart) return null;
  return periodEnding(s, end, firstStart);
}
