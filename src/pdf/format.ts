/** Printing helpers for documents: money in pence, YYYY-MM-DD dates, quantities, countries. */

const currencySymbols: Readonly<Record<string, string>> = { GBP: '£', EUR: '€', USD: '$' };

/** 123450 → "£1,234.50", -1000 → "-£10.00"; a currency without a symbol here prints its code ("CHF 5.00"). */
export function formatMoney(pence: number, currency = 'GBP'): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = String(abs % 100).padStart(2, '0');
  const symbol = currencySymbols[currency] ?? `${currency} `;
  return `${sign}${symbol}${whole}.${fraction}`;
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
