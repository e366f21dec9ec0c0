/** Money is integer pence inside; pounds appear only when parsing and printing. */
import { AppError } from './errors.js';

const pounds = /^(-)?£?(\d{1,3}(,\d{3})+|\d+)(\.(\d{1,2}))?$/;

/** "120.00", "-144", "1,200.5", "£9.99" → pence; anything else is refused naming `field`. */
export function parsePounds(text: string, field: string): number {
  const m = pounds.exec(text.trim());
  if (!m) throw new AppError('validation_error', `${field} must be an amount in pounds such as 120.00, not ${text}`, field);
  const whole = Number((m[2] ?? '0').replaceAll(',', ''));
  const pence = Number((m[5] ?? '').padEnd(2, '0'));
  const value = whole * 100 + pence;
  if (!Number.isSafeInteger(value)) throw new AppError('validation_error', `${field} is too large`, field);
  return m[1] ? -value : value;
}

/** 12345 → "123.45", -5 → "-0.05": plain, for files that programs read (CSV, hledger, beancount). */
export function formatPounds(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 123456 → "1,234.56", -500 → "-5.00": for tables that people read. */
export function displayPounds(pence: number): string {
  const plain = formatPounds(pence);
  const point = plain.indexOf('.');
  return plain.slice(0, point).replace(/\B(?=(\d{3})+$)/g, ',') + plain.slice(point);
}

/** 123456 → "£1,234.56", -500 → "-£5.00": amounts in messages, which both the API and the CLI show to people. */
export function sterling(pence: number): string {
  return pence < 0 ? `-£${displayPounds(-pence)}` : `£${displayPounds(pence)}`;
}

/** The most one ledger line holds, £100bn in pence: far above any real line, and 500 of them still sum exactly in a double. */
export const maxLineAmount = 10_000_000_000_000;
