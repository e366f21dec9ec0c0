/** Printing helpers for documents: money in pence, YYYY-MM-DD dates, quantities, countries. */
import { taxYearOf } from '../engine/dates.js';

const currencySymbols: Readonly<Record<string, string>> = { GBP: '£', EUR: '€', USD: '$' };

const thousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** A count with thousands separated: 12500 → "12,500". */
export function formatCount(n: number): string {
  return (n < 0 ? '-' : '') + thousands(String(Math.abs(n)));
}

/** 123450 → "£1,234.50", -1000 → "-£10.00"; a currency without a symbol here prints its code ("CHF 5.00"). */
export function formatMoney(pence: number, currency = 'GBP'): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  const whole = thousands(String(Math.floor(abs / 100)));
  const fraction = String(abs % 100).padStart(2, '0');
  const symbol = currencySymbols[currency] ?? `${currency} `;
  return `${sign}${symbol}${whole}.${fraction}`;
}

/**
 * About how wide `text` prints in Roboto at `size` points, bold or not, erring
 * wide (figures and currency symbols 0.58 em, Roboto's being 0.56; separators
 * 0.3 em; letters, as of a currency code, 0.75 em): enough to size a money
 * column to its longest figure.
 */
export function printedWidth(text: string, size: number): number {
  let em = 0;
  for (const ch of text) em += /[.,:;'\s-]/u.test(ch) ? 0.3 : /[0-9£$€]/u.test(ch) ? 0.58 : 0.75;
  return Math.ceil(em * size);
}

const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

/** "2026-11-21" → "21 November 2026", read from the string itself so no time zone can move the day. */
export function formatDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const month = m ? months[Number(m[2]) - 1] : undefined;
  if (!m || !month) return date;
  return `${Number(m[3])} ${month} ${m[1]}`;
}

/** Whole days from one YYYY-MM-DD date to another, counted in UTC. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** 2 → "2", 1.5 → "1.5", 0.3333333 → "0.3333": enough places for a quantity, no float noise. */
export function formatQuantity(quantity: number): string {
  return String(Number(quantity.toFixed(4)));
}

/** The organisation is stored with an ISO code ("GB"); an address block wants the country's name. */
export function countryName(country: string): string {
  const upper = country.trim().toUpperCase();
  return upper === 'GB' || upper === 'UK' ? 'United Kingdom' : country;
}

/** The address columns of an organisation or contact row. */
export interface AddressFields {
  readonly address_line1: string | null;
  readonly address_line2: string | null;
  readonly city: string | null;
  readonly region: string | null;
  readonly postal_code: string | null;
  readonly country: string;
}

/** An address block's lines, blank ones dropped and the country by name. */
export function addressLines(a: AddressFields): string[] {
  const lines = [a.address_line1, a.address_line2, a.city, a.region, a.postal_code, countryName(a.country)];
  return lines.filter((line): line is string => Boolean(line && line.trim()));
}

/**
 * A dividend per share: the total in pence over the shares, rounded DOWN to
 * four decimal places of a pound (a hundredth of a penny), so that the
 * printed rate times the shares never comes to more than the total paid.
 * 250000p over 100 shares → "£25.0000"; 100000p over 3 → "£333.3333".
 */
export function formatPerShare(totalPence: number, shares: number): string {
  if (!Number.isSafeInteger(shares) || shares <= 0 || !Number.isSafeInteger(totalPence) || totalPence < 0) return '—';
  // In ten-thousandths of a pound (pence × 100), in BigInt so that the floor is exact at any size.
  const units = (BigInt(totalPence) * 100n) / BigInt(shares);
  const whole = thousands((units / 10000n).toString());
  return `£${whole}.${(units % 10000n).toString().padStart(4, '0')}`;
}

/** The UK tax year a date falls in, which runs 6 April to 5 April: "2026-04-06" → "2026/27", "2026-04-05" → "2025/26". */
export function formatTaxYear(date: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? taxYearOf(date) : date;
}

/** The 5 April that ends the tax year of a date: "2026-10-01" → "5 April 2027". */
export function taxYearEnd(date: string): string {
  const first = Number(formatTaxYear(date).slice(0, 4));
  return Number.isNaN(first) ? date : `5 April ${first + 1}`;
}
