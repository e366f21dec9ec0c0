/** The ledger entries of an invoice or a bill, as posting takes them. */
import type { Kysely } from 'kysely';
import { loadOrganisation } from '../organisation/organisation.js';
import type { LineInput, TransactionInput } from '../ledger/posting.js';
import { accountByCode, type Kind } from './documents.js';
import type { Computed } from './document-pricing.js';
import type { OrgDb } from '../../store/tables.js';

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
  const registered = (await loadOrganisation(db)).vat_scheme !== 'not_registered';
  const contactId = c.contact.id;
  const lines: LineInput[] = [{ accountId: control.id, amount: -k.lineSign * c.priced.total, contactId, description: c.contact.name }];
  for (const item of c.priced.items) {
    if (item.net === 0) continue;
    lines.push({
      accountId: item.accountId as string,
      amount: k.lineSign * item.net,
      contactId,
      description: item.description.slice(0, 500),
      ...(registered ? { vatRate: item.vatRate, vatTreatment: item.vatRateName === 'exempt' ? 'none' : 'exclusive' } : {}),
    });
  }
  if (c.priced.vatAmount !== 0) {
    const vat = await accountByCode(db, k.vatCode);
    lines.push({ accountId: vat.id, amount: k.lineSign * c.priced.vatAmount, contactId, description: `VAT on ${number ?? id}` });
  }
  const name = number ?? id;
  return {
    date: c.issueDate,
    description: k.kind === 'sales' ? `Invoice ${name} to ${c.contact.name}` : `Bill ${name} from ${c.contact.name}`,
    reference: (number ?? '').slice(0, 100) || null,
    status,
    sourceType: k.sourceType,
    sourceId: id,
    lines,
  };
}
