/**
 * Line items of invoices, bills and quotes: the input shape, the
 * arithmetic, the view and storage. Per line, in integer pence:
 *   net       = quantity × unitPrice, rounded to the nearest penny (halves away from zero);
 *   vatAmount = net × rate / 100, rounded the same way;
 *   lineTotal = net + vatAmount.
 * The document's subtotal, vatAmount and total are the sums of its lines.
 * Rounding each line to the nearest penny is one of the methods HMRC
 * accepts (VAT Notice 700, section 17.5). Rates: standard 20%, reduced 5%,
 * zero 0%, exempt no VAT (0, shown as exempt). An organisation not
 * registered for VAT charges none: its sales lines need no rate (stored
 * without one: vatRateName null) and may not claim standard or reduced; a
 * registered one states every line's rate. A bill always states the
 * supplier's rate.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { maxLineAmount, sterling } from '../money.js';
import { idOf, pence } from '../schema.js';
import { idOut } from '../output.js';
import type { Clock } from '../clock.js';
import { precompiled } from '../../store/precompiled.js';
import type { DocumentItemsTable, OrgDb, OrganisationTable, VatRateName } from '../../store/tables.js';

export const vatRateNames = ['standard', 'reduced', 'zero', 'exempt'] as const;

/** The percentage each rate name charges. */
export const vatPercent: Readonly<Record<VatRateName, number>> = { standard: 20, reduced: 5, zero: 0, exempt: 0 };

export const maxItems = 200;
const maxQuantity = 1_000_000;
/** £100m a unit. */
const maxUnitPrice = 10_000_000_000;
/** £10bn a line. */
const maxNet = 1_000_000_000_000;

/** At most 4 decimal places (hours such as 7.5 or 0.25; litres such as 41.275). */
const quantity = () =>
  z
    .number()
    .gt(0)
    .max(maxQuantity)
    .refine((v) => Math.abs(Math.round(v * 10_000) - v * 10_000) < 1e-6, { message: 'must have at most 4 decimal places' });

/** A bill's line as clients send it, with the supplier's VAT rate; accountId is the expense (or asset) account. */
export const itemInput = z.strictObject({
  description: z.string().trim().min(1).max(1000),
  quantity: quantity(),
  unitPrice: pence().min(-maxUnitPrice).max(maxUnitPrice),
  vatRate: z.enum(vatRateNames),
  accountId: idOf('acc').optional(),
});

/** A sales line (invoice, quote): vatRate may be left out, which only a business not registered for VAT may do (priceItems checks). */
export const saleItemInput = itemInput.extend({
  vatRate: z.enum(vatRateNames).optional().describe('required when the organisation is registered for VAT; left out (or zero, exempt) when it is not'),
});

export type ItemInput = z.output<typeof saleItemInput>;

export const itemsInput = () => z.array(itemInput).min(1).max(maxItems);
export const saleItemsInput = () => z.array(saleItemInput).min(1).max(maxItems);

export interface PricedItem {
  readonly description: string;
  readonly quantity: number;
  readonly unitPrice: number;
  /** null: no rate (a sale of a business not registered for VAT). */
  readonly vatRateName: VatRateName | null;
  readonly vatRate: number;
  readonly net: number;
  readonly vatAmount: number;
  readonly lineTotal: number;
  readonly accountId: string | null;
  /** On a credit note: the invoice or bill line it credits. */
  readonly sourceItemId?: string | null;
}

export interface Priced {
  readonly items: readonly PricedItem[];
  readonly subtotal: number;
  readonly vatAmount: number;
  readonly total: number;
}

/** numerator / denominator to the nearest integer, halves away from zero (denominator > 0). */
function divideRound(numerator: bigint, denominator: bigint): number {
  const sign = numerator < 0n ? -1n : 1n;
  const magnitude = numerator * sign;
  return Number(sign * ((2n * magnitude + denominator) / (2n * denominator)));
}

export type VatScheme = OrganisationTable['vat_scheme'];

/** A line's rate under the scheme: a registered business states it; one not registered charges no VAT. */
function rateOf(item: ItemInput, scheme: VatScheme, index: number): { readonly name: VatRateName | null; readonly rate: number } {
  const field = `items[${index}].vatRate`;
  if (scheme === 'not_registered') {
    if (item.vatRate === 'standard' || item.vatRate === 'reduced') {
      throw new AppError('validation_error', `${field}: not registered for VAT: a sale carries no VAT (leave vatRate out, or send zero or exempt)`, field);
    }
    return { name: item.vatRate ?? null, rate: 0 };
  }
  if (item.vatRate === undefined) {
    throw new AppError(
      'validation_error',
      `${field} is required: the organisation is registered for VAT, so each line states its rate (standard, reduced, zero or exempt)`,
      field,
    );
  }
  return { name: item.vatRate, rate: vatPercent[item.vatRate] };
}

/** Price line `index` under the organisation's VAT scheme. */
export function priceItem(item: ItemInput, scheme: VatScheme, index = 0): PricedItem {
  const { name, rate } = rateOf(item, scheme, index);
  const tenThousandths = BigInt(Math.round(item.quantity * 10_000));
  const net = divideRound(tenThousandths * BigInt(item.unitPrice), 10_000n);
  const vatAmount = divideRound(BigInt(net) * BigInt(rate), 100n);
  return {
    description: item.description,
    quantity: item.quantity,
    unitPrice: item.unitPrice,
    vatRateName: name,
    vatRate: rate,
    net,
    vatAmount,
    lineTotal: net + vatAmount,
    accountId: item.accountId ?? null,
  };
}

/** Price every line and total them; a document must come to more than zero. */
export function priceItems(items: readonly ItemInput[], scheme: VatScheme): Priced {
  const priced = items.map((item, i) => {
    const p = priceItem(item, scheme, i);
    if (Math.abs(p.net) > maxNet) throw new AppError('validation_error', `items[${i}]: quantity × unitPrice is over £10bn`, `items[${i}].unitPrice`);
    return p;
  });
  const subtotal = priced.reduce((s, p) => s + p.net, 0);
  const vatAmount = priced.reduce((s, p) => s + p.vatAmount, 0);
  const total = subtotal + vatAmount;
  if (total <= 0) throw new AppError('validation_error', `the total must be a positive amount, not ${sterling(total)}`, 'items');
  // Each ledger line of the document (the total, an account's net, the VAT) is at most the items' sizes added up: within what a line holds, posting never refuses one.
  const size = priced.reduce((s, p) => s + Math.abs(p.net) + Math.abs(p.vatAmount), 0);
  if (size > maxLineAmount) {
    throw new AppError(
      'validation_error',
      `the items come to more than ${sterling(maxLineAmount)}, the most one ledger line holds: split the document`,
      'items',
    );
  }
  return { items: priced, subtotal, vatAmount, total };
}

/** A stored line of an invoice, bill, quote or credit note. */
export const itemSchema = z.strictObject({
  id: idOut('line'),
  description: z.string(),
  quantity: z.number(),
  unitPrice: pence(),
  vatRate: z.number().describe('the percentage charged: 20, 5 or 0 (0 also when exempt or not VAT-registered)'),
  vatRateName: z.enum(vatRateNames).nullable().describe('null: no VAT rate (a sale of a business not registered for VAT)'),
  netAmount: pence().describe('quantity × unitPrice, rounded to the penny'),
  vatAmount: pence(),
  lineTotal: pence(),
  accountId: z.string().nullable().describe('the revenue (invoice, quote) or expense (bill) account the line posts to'),
});

/** A line priced but not stored (a preview): no id yet. */
export const pricedItemSchema = itemSchema.omit({ id: true });

export type ItemView = z.output<typeof itemSchema>;
export type PricedItemView = z.output<typeof pricedItemSchema>;

export function itemView(row: PricedItem): PricedItemView;
export function itemView(row: DocumentItemsTable): ItemView;
export function itemView(row: DocumentItemsTable | PricedItem): ItemView | PricedItemView {
  if ('document_id' in row) {
    return {
      id: row.id,
      description: row.description,
      quantity: row.quantity,
      unitPrice: row.unit_price,
      vatRate: row.vat_rate,
      vatRateName: row.vat_rate_name,
      netAmount: row.net,
      vatAmount: row.vat_amount,
      lineTotal: row.line_total,
      accountId: row.account_id,
    };
  }
  return {
    description: row.description,
    quantity: row.quantity,
    unitPrice: row.unitPrice,
    vatRate: row.vatRate,
    vatRateName: row.vatRateName,
    netAmount: row.net,
    vatAmount: row.vatAmount,
    lineTotal: row.lineTotal,
    accountId: row.accountId,
  };
}

/** Store a document's lines, replacing any it had. */
export async function saveItems(trx: Kysely<OrgDb>, clock: Clock, documentId: string, items: readonly PricedItem[]): Promise<void> {
  await trx.deleteFrom('document_items').where('document_id', '=', documentId).execute();
  const rows: DocumentItemsTable[] = items.map((p, i) => ({
    id: newId('line', clock.now()),
    document_id: documentId,
    position: i + 1,
    description: p.description,
    quantity: p.quantity,
    unit_price: p.unitPrice,
    vat_rate_name: p.vatRateName,
    vat_rate: p.vatRate,
    net: p.net,
    vat_amount: p.vatAmount,
    line_total: p.lineTotal,
    account_id: p.accountId,
    source_item_id: p.sourceItemId ?? null,
  }));
  if (rows.length > 0) await trx.insertInto('document_items').values(rows).execute();
}

/** The lines of each document, in order. */
export async function loadItems(db: Kysely<OrgDb>, documentIds: readonly string[]): Promise<Map<string, DocumentItemsTable[]>> {
  const out = new Map<string, DocumentItemsTable[]>(documentIds.map((id) => [id, []]));
  if (documentIds.length === 0) return out;
  const rows = await db.selectFrom('document_items').selectAll().where('document_id', 'in', documentIds).orderBy('document_id').orderBy('position').execute();
  for (const row of rows) out.get(row.document_id)?.push(row);
  return out;
}

const itemsOfOne = precompiled((db: Kysely<OrgDb>, documentId: string) =>
  db.selectFrom('document_items').selectAll().where('document_id', '=', documentId).orderBy('position'),
);

/** The lines of one document, in order. */
export const loadItemsOf = (db: Kysely<OrgDb>, documentId: string): Promise<DocumentItemsTable[]> => itemsOfOne.all(db, documentId);

/** Rebuild item inputs from stored lines (to re-price or copy a document). */
export function itemInputsOf(rows: readonly DocumentItemsTable[]): ItemInput[] {
  return rows.map((r) => ({
    description: r.description,
    quantity: r.quantity,
    unitPrice: r.unit_price,
    ...(r.vat_rate_name === null ? {} : { vatRate: r.vat_rate_name }),
    ...(r.account_id === null ? {} : { accountId: r.account_id }),
  }));
}
