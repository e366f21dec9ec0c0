/**
 * `--item "description;quantity;unit price in pounds;vatRate[;account]"`,
 * repeatable, for every operation whose body has line items (invoices,
 * bills, quotes): the command-line way to write `items` without JSON. A
 * sale of a business not registered for VAT has no rate: a value ending in
 * the price (a number) leaves vatRate out.
 */
import { AppError } from '../engine/errors.js';
import { parsePounds } from '../engine/money.js';
import { jsonSchemaOf, typesOf } from '../engine/input.js';
import type { Operation } from '../engine/operation.js';

const saleItemHelp =
  'a line as "description;quantity;unit price in pounds;vatRate" (standard, reduced, zero or exempt; left out on a sale of a business not registered for VAT), optionally ";account" (a code such as 4100, or an id; with no rate: "…;120.00;;4100"); repeat for more lines; e.g. "Consulting;1.5;500.00;standard;4100"';
const purchaseItemHelp =
  'a line as "description;quantity;unit price in pounds;vatRate" (the supplier\'s rate: standard, reduced, zero or exempt), optionally ";account" (the expense or asset account it is bought for: a code such as 5100, or an id; 5000 Cost of Sales when left out); repeat for more lines; e.g. "Printer paper;10;4.50;standard;5100"';

/** --item's help: a bill's lines are purchases (the supplier's rate, an expense account), an invoice's or quote's sales. */
export const itemFlagHelp = (op: Operation): string => (op.cli.group === 'bills' ? purchaseItemHelp : saleItemHelp);

/** The parts of an item as --item names them, by the API's field: what an error about `items[1].unitPrice` calls it (`--item 2 unit price`). */
export const itemPartWords: Readonly<Record<string, string>> = {
  description: 'description',
  quantity: 'quantity',
  unitPrice: 'unit price',
  vatRate: 'vatRate',
  accountId: 'account',
};

const vatRates = new Set(['standard', 'reduced', 'zero', 'exempt', '']);

/** Whether the operation's body takes `items`, an array of objects. */
export function hasItems(op: Operation): boolean {
  if (!op.schemas.body) return false;
  const items = jsonSchemaOf(op.schemas.body).properties?.['items'];
  return items !== undefined && typesOf(items).has('array');
}

/** The UK rates by the percentage people write for them: a rate is given by its name, and a percentage is refused naming it. */
const rateNameOfPercent: Readonly<Record<string, string>> = { '20': 'standard', '5': 'reduced', '0': 'zero' };
const rateNames = 'standard (20%), reduced (5%), zero (0%) or exempt';
const looksNumeric = (part: string | undefined): boolean => part !== undefined && /^-?£?[\d.,]+$/.test(part);
/** Text that may be an account's name where the account goes: not a number, not a rate, not blank (the resolver says whether it names one). */
const isAccountName = (part: string): boolean => part !== '' && !looksNumeric(part) && !vatRates.has(part.toLowerCase());

/**
 * Refuse a percentage where the rate goes ("x;1;1;20", "x;1;1;20%;4100"):
 * read as it stands, 20 would be the price (or an account code) and the
 * error would be about something else. A bare number counts only when it is
 * one of the UK rates (20, 5, 0) and a quantity and a price stand before it;
 * one written with % always.
 */
function refusePercentRate(parts: readonly string[], field: string): void {
  const final = parts[parts.length - 1] ?? '';
  const accountLast = /^acc_/.test(final) || /^\d{3,6}$/.test(final) || (parts.length >= 5 && isAccountName(final));
  for (const at of accountLast ? [parts.length - 1, parts.length - 2] : [parts.length - 1]) {
    const match = /^(\d+(?:\.\d+)?)\s*(%?)$/.exec(parts[at] ?? '');
    if (!match || at < 3 || !looksNumeric(parts[at - 1]) || !looksNumeric(parts[at - 2])) continue;
    const percent = String(Number(match[1]));
    const name = rateNameOfPercent[percent];
    if (name === undefined && match[2] !== '%') continue;
    const hint = name === undefined ? `write ${rateNames}` : `for ${percent}% write ${name} (the rates are ${rateNames})`;
    throw new AppError('validation_error', `${field}: ${parts[at]} is not a VAT rate name: ${hint}`, `${field} vatRate`);
  }
}

/** One --item value as an item of the API (unit price in pence); a refusal names it as typed (`--item 2 quantity`). */
export function parseItemFlag(value: string, index: number): Record<string, unknown> {
  const field = `--item ${index + 1}`;
  const parts = value.split(';').map((p) => p.trim());
  refusePercentRate(parts, field);
  const last = parts[parts.length - 1] ?? '';
  const afterRate = vatRates.has(parts[parts.length - 2] ?? '-') && looksNumeric(parts[parts.length - 3]);
  // An account after the rate: an id, or a code (digits) or a name after a rate or an empty rate, so that it is never read as a price.
  const accountId =
    parts.length >= 5 && (/^acc_/.test(last) || (/^\d{3,6}$/.test(last) && vatRates.has(parts[parts.length - 2] ?? '-')) || (afterRate && isAccountName(last)))
      ? parts.pop()
      : undefined;
  if (accountId !== undefined && parts[parts.length - 1] === '') parts.pop();
  const rated = !looksNumeric(parts[parts.length - 1]);
  if (parts.length < (rated ? 4 : 3)) {
    throw new AppError('validation_error', `--item ${JSON.stringify(value)}: expected "description;quantity;unit price;vatRate"`, field);
  }
  const vatRate = rated ? parts.pop() : undefined;
  const [price, quantity] = [parts.pop() as string, parts.pop() as string];
  const number = Number(quantity);
  if (quantity === '' || !Number.isFinite(number))
    throw new AppError('validation_error', `${field} quantity must be a number, not ${quantity}`, `${field} quantity`);
  return {
    description: parts.join(';'),
    quantity: number,
    unitPrice: parsePounds(price, `${field} unit price`),
    ...(vatRate === undefined ? {} : { vatRate }),
    ...(accountId === undefined ? {} : { accountId }),
  };
}
