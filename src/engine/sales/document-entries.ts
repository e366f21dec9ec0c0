/**
 * The ledger entries of an invoice or a bill, as posting takes them, and
 * their VAT facts (one entry per line, on the invoice basis):
 * - standard scheme: each line's net to its account, the VAT to 2200
 *   (invoices) or 2201 (bills), reclaimed in box 4;
 * - flat rate scheme: invoices as standard (the customer is charged VAT at
 *   the normal rates); a bill line's VAT is part of its cost (posted gross to
 *   the line's account, not reclaimed), except a capital purchase (an asset
 *   line of £2,000 or more including VAT), whose VAT goes to 2201 and is
 *   reclaimed; a supplier's credit on such a line, whatever its size, takes
 *   back its share of the reclaim;
 * - not registered: no VAT facts; a bill line is posted gross, VAT inside
 *   the cost, so the bill's total is what the supplier charged.
 * The scheme is the one in force on the document's date (a credit note's,
 * on the date of the document it credits): a bill of September stays on
 * the standard scheme when flat rate is scheduled from October.
 * A line with VAT but no rate (a migrated document whose VAT is not 20% or
 * 5% of its net) is posted the same way, its line and entry without a rate.
 */
import type { Kysely } from 'kysely';
import { loadOrganisation, schemeOn } from '../organisation/organisation.js';
import type { LineInput, TransactionInput } from '../ledger/posting.js';
import { capitalPurchaseThreshold, type VatEntryInput } from '../ledger/vat-entries.js';
import { accountByCode, type Kind } from './documents.js';
import type { Computed } from './document-pricing.js';
import type { PricedItem } from './items.js';
import type { OrgDb } from '../../store/tables.js';

/** A document's item lines and VAT line, and their VAT facts. */
export interface ItemEntries {
  readonly lines: LineInput[];
  readonly vatEntries: VatEntryInput[];
}

/**
 * The lines of a document's items (direction +1) or of a credit note
 * against them (−1), with the VAT line and one VAT entry per item;
 * `documentId` is the invoice, bill or credit note the facts belong to;
 * `schemeDate` the day whose VAT scheme applies.
 */
export async function itemEntries(
  db: Kysely<OrgDb>,
  k: Kind,
  items: readonly PricedItem[],
  to: { readonly direction: 1 | -1; readonly documentId: string; readonly contactId: string; readonly name: string; readonly schemeDate: string },
): Promise<ItemEntries> {
  const scheme = (await schemeOn(db, await loadOrganisation(db), to.schemeDate)).vat_scheme;
  const fallback = items.some((i) => i.accountId === null) ? (await accountByCode(db, k.defaultAccountCode)).id : '';
  const accountOf = (item: PricedItem) => item.accountId ?? fallback;
  const accountTypes = new Map(
    (
      await db
        .selectFrom('accounts')
        .select(['id', 'account_type'])
        .where('id', 'in', [...new Set(items.map(accountOf))])
        .execute()
    ).map((a) => [a.id, a.account_type]),
  );
  // A credit note's line is capital when the line it credits was: a £600 credit on a £2,880 van takes back its share of the reclaim.
  const sourceIds = items.flatMap((i) => (i.sourceItemId ? [i.sourceItemId] : []));
  const sourceTotals = new Map(
    sourceIds.length === 0 || k.kind !== 'purchase'
      ? []
      : (await db.selectFrom('document_items').select(['id', 'line_total']).where('id', 'in', sourceIds).execute()).map((r) => [r.id, r.line_total]),
  );
  const sizeOf = (item: PricedItem) => Math.abs((item.sourceItemId ? sourceTotals.get(item.sourceItemId) : undefined) ?? item.lineTotal);
  const sign = to.direction * k.lineSign;
  const lines: LineInput[] = [];
  const vatEntries: VatEntryInput[] = [];
  let vatOnVatAccount = 0;
  // Looked up once, and only when a line needs it (a bill of a business not registered never does).
  let vatAccount: Promise<string> | undefined;
  const vatAccountId = () => (vatAccount ??= accountByCode(db, k.vatCode).then((a) => a.id));
  for (const item of items) {
    const accountId = accountOf(item);
    const purchase = k.kind === 'purchase';
    const capital = purchase && accountTypes.get(accountId) === 'asset' && sizeOf(item) >= capitalPurchaseThreshold;
    // The VAT stays inside the line's cost when it is not reclaimed: a bill not registered, or flat rate and not capital.
    const vatInCost = purchase && (scheme === 'not_registered' || (scheme === 'flat_rate' && !capital));
    const amount = vatInCost ? item.lineTotal : item.net;
    if (!vatInCost) vatOnVatAccount += item.vatAmount;
    // VAT at no one rate (a migrated document's, as its file gave it): the line states no rate, its entry none.
    const noRate = item.vatRateName === null && item.vatAmount !== 0;
    const lineIndex = lines.length;
    if (amount !== 0) {
      lines.push({
        accountId,
        amount: sign * amount,
        contactId: to.contactId,
        description: item.description.slice(0, 500),
        ...(scheme === 'not_registered' || noRate
          ? {}
          : { vatRate: item.vatRate, vatTreatment: item.vatRateName === 'exempt' ? 'none' : vatInCost ? 'inclusive' : 'exclusive' }),
      });
    }
    if (scheme !== 'not_registered' && (item.net !== 0 || item.vatAmount !== 0)) {
      vatEntries.push({
        ...(amount !== 0 ? { lineIndex } : {}),
        documentId: to.documentId,
        direction: purchase ? 'purchase' : 'sale',
        basis: 'accrual',
        rate: noRate ? null : item.vatRate,
        net: to.direction * item.net,
        vat: to.direction * item.vatAmount,
        reclaimable: !vatInCost,
        capital,
        vatAccountId: vatInCost ? accountId : await vatAccountId(),
      });
    }
  }
  if (vatOnVatAccount !== 0) {
    lines.push({ accountId: await vatAccountId(), amount: sign * vatOnVatAccount, contactId: to.contactId, description: `VAT on ${to.name}` });
  }
  return { lines, vatEntries };
}

/** The entries of a document: the control account against each line's account and VAT. */
export async function ledgerInput(
  db: Kysely<OrgDb>,
  k: Kind,
  id: string,
  number: string | null,
  c: Computed,
  status: 'draft' | 'posted',
): Promise<TransactionInput> {
  const control = await accountByCode(db, k.controlCode);
  const name = number ?? id;
  const items = await itemEntries(db, k, c.priced.items, { direction: 1, documentId: id, contactId: c.contact.id, name, schemeDate: c.issueDate });
  return {
    date: c.issueDate,
    description: k.kind === 'sales' ? `Invoice ${name} to ${c.contact.name}` : `Bill ${name} from ${c.contact.name}`,
    reference: (number ?? '').slice(0, 100) || null,
    status,
    sourceType: k.sourceType,
    sourceId: id,
    lines: [{ accountId: control.id, amount: -k.lineSign * c.priced.total, contactId: c.contact.id, description: c.contact.name }, ...items.lines],
    vatEntries: items.vatEntries.map((e) => (e.lineIndex === undefined ? e : { ...e, lineIndex: e.lineIndex + 1 })),
  };
}
