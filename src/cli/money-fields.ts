/**
 * Which output fields hold money (integer pence), so that tables print them
 * in pounds. Inputs say so in their schemas (pence()), but operations
 * declare no output schemas yet: until they do (a later issue), and
 * pence() on those replaces this list, the one list of names lives here.
 * A field is known by its own name wherever it sits (items[].lineTotal,
 * balance.net, overdueInvoices.total). Counts (quantity, vatRate,
 * paymentTerms, count, totalInvoices, daysOverdue…) are deliberately absent.
 */
export const moneyFields: ReadonlySet<string> = new Set([
  // invoices, bills, quotes and their lines and payments (documents.ts, items.ts, quotes.ts)
  'amount',
  'amountDue',
  'amountPaid',
  'subtotal',
  'vatAmount',
  'total',
  'unitPrice',
  'netAmount',
  'lineTotal',
  // credit notes, refunds and allocations
  'amountCredited',
  'creditTotal',
  'remainingCredit',
  'allocated',
  'refunded',
  'unallocatedCredit',
  'totalCredited',
  'invoiceAmountDue',
  'billAmountDue',
  // transactions, account balances and ledgers (transaction-view.ts, accounts.balance, account-ledger.ts)
  'debit',
  'credit',
  'net',
  'balance',
  'totalDebit',
  'totalCredit',
  'openingBalance',
  'runningBalance',
  'closingBalance',
  // contacts.summary
  'totalInvoiced',
  'outstanding',
  // reports: statements, aged debtors and creditors, dashboard, VAT return
  'grossProfit',
  'netProfit',
  'netAssets',
  'current',
  'days1to30',
  'days31to60',
  'days61to90',
  'days90plus',
  'bankBalance',
  'accountsReceivable',
  'accountsPayable',
  'prior',
  'vat',
  'box1',
  'box2',
  'box3',
  'box4',
  'box5',
  'box6',
  'box7',
  'box8',
  'box9',
]);

/** Objects whose fields are counts even where a name says money (a webhook's stats24h.total, a list's meta.total). */
const countGroups: ReadonlySet<string> = new Set(['stats24h', 'meta']);

/** Whether a field (a name, or a flattened path such as balance.net) holds pence. */
export function isMoneyField(path: string): boolean {
  const parts = path.split('.');
  const name = parts.pop() as string;
  return moneyFields.has(name) && !parts.some((p) => countGroups.has(p));
}
