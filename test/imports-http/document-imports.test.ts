/**
 * Invoice and bill imports over HTTP, on the exports in
 * fixtures/migrations (their README.md works every figure by hand): the
 * preconditions (an opening balance in clearing mode, not the cash VAT
 * basis), the preview (stats as pounds strings, each row's contact match,
 * the clearing proof), confirm as migrated documents with synthetic
 * payments that take 1198 / 2198 to zero, one active import per direction,
 * void back to the opening balance (refused once a payment came in), and
 * row conservation with every refusal leaving the books as they were.
 *
 * The clock is 1 April 2025, the day after the cutover, so that a document
 * due before then is overdue and one due later is still sent (approved).
 */
import t, { type Test } from 'tap';
import { expectError } from '../http/support.js';
import { contactsByName, fixture, tally, trialBalanceAt, world } from './support.js';

type World = Awaited<ReturnType<typeof world>>;
const dayAfterCutover = '2025-04-01T10:00:00Z';

/** Labels the dictionary does not know, mapped by hand as an accountant would (both are direct costs). */
const handMapped: Record<string, string> = { xero: 'Tools and Consumables', freeagent: 'Freelance Design Fees' };

/** The provider's trial balance confirmed at 31 March 2025 in the mode given. */
async function openingBalances(t: Test, w: World, provider: string, clearingMode: 'clearing' | 'direct' = 'clearing'): Promise<void> {
  const label = handMapped[provider];
  const up = await w.api.request('POST', '/v1/opening-balances/upload', {
    body: {
      file: fixture(`${provider}/trial-balance.csv`),
      filename: 'trial-balance.csv',
      clearingMode,
      cutoverDate: '2025-03-31',
      ...(label ? { mappings: [{ sourceLabel: label, targetAccountId: w.id('5000') }] } : {}),
    },
  });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.equal(up.body.data.canConfirm, true, JSON.stringify(up.body.data.blockers));
  const confirmed = await w.api.request('POST', `/v1/opening-balances/${up.body.data.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
}

/** The provider's contacts imported first, a conflict kept apart, so that the documents' names have contacts to match. */
async function contacts(t: Test, w: World, provider: string): Promise<void> {
  const up = await w.api.request('POST', '/v1/contact-imports/upload', { body: { file: fixture(`${provider}/contacts.csv`) } });
  t.equal(up.status, 201);
  for (const o of up.body.data.preview.outcomes as { type: string; nodeIds: string[] }[]) {
    if (o.type === 'CONFLICT')
      await w.api.request('POST', `/v1/contact-imports/${up.body.data.importId}/resolve`, { body: { resolutions: [{ split: o.nodeIds }] } });
  }
  t.equal((await w.api.request('POST', `/v1/contact-imports/${up.body.data.importId}/confirm`)).status, 200);
}

async function upload(t: Test, w: World, path: 'invoice-imports' | 'bill-imports', file: string, filename = 'documents.csv') {
  const r = await w.api.request('POST', `/v1/${path}/upload`, { body: { file, filename } });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  const stats = r.body.data.stats;
  t.equal(stats.validRows + stats.errorRows + stats.ignoredRows, stats.totalRows, 'row conservation: valid + errors + ignored = rows');
  t.equal(r.body.data.rows.length, stats.validRows, 'one row shown per valid row');
  t.equal(r.body.data.errors.length, stats.errorRows);
  t.equal(r.body.data.ignored.length, stats.ignoredRows);
  return r.body.data;
}

interface Row {
  docNumber: string;
  gross: string;
  paid: string;
  outstanding: string;
  contact: { contactId: string | null; contactName: string; outcome: string; confidence: number };
}
interface Doc {
  id: string;
  invoiceNumber?: string;
  billNumber?: string | null;
  status: string;
  contactName: string;
  total: number;
  vatAmount: number;
  amountPaid: number;
  amountDue: number;
}
const byNumber = (rows: Row[]) => new Map(rows.map((r) => [r.docNumber, r]));

/**
 * After confirm, every row of the file recorded once, as [rows, created, skipped] worked by hand: a data_import_rows row each
 * since `pending` (the tally before the confirm), and the import's created + merged + skipped + errors = rows.
 */
async function recorded(
  t: Test,
  w: World,
  path: 'invoice-imports' | 'bill-imports',
  importId: string,
  pending: Awaited<ReturnType<typeof tally>>,
  rows: readonly [number, number, number],
): Promise<void> {
  t.equal((await tally(w.books)).data_import_rows - pending.data_import_rows, rows[0], 'a data_import_rows row for each row of the file');
  const i = (await w.api.request('GET', `/v1/${path}/${importId}`)).body.data.import;
  t.same(
    [i.totalRows, i.createdCount, i.mergedCount, i.skippedCount, i.errorCount],
    [rows[0], rows[1], 0, rows[2], 0],
    'rows, created, merged, skipped, errors',
  );
  t.equal(
    i.createdCount + i.mergedCount + i.skippedCount + i.errorCount,
    i.totalRows,
    'row conservation at confirm: created + merged + skipped + errors = rows',
  );
}

async function documents(w: World, path: 'invoices' | 'bills'): Promise<Map<string, Doc>> {
  const r = await w.api.request('GET', `/v1/${path}?limit=100`);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return new Map((r.body.data as Doc[]).map((d) => [d.invoiceNumber ?? d.billNumber ?? '', d]));
}

t.test('preconditions: no opening balance, one in direct mode, the cash VAT basis: 422 and nothing written', async (t) => {
  const file = fixture('xero/invoices.csv');
  const none = await world(t, {}, dayAfterCutover);
  const empty = await tally(none.books);
  for (const path of ['invoice-imports', 'bill-imports']) {
    expectError(t, await none.api.request('POST', `/v1/${path}/upload`, { body: { file } }), 422, 'unprocessable_entity', { message: /clearing/ });
  }
  t.same(await tally(none.books), empty, 'without an opening balance nothing is written');

  const direct = await world(t, {}, dayAfterCutover);
  await openingBalances(t, direct, 'xero', 'direct');
  const before = await tally(direct.books);
  for (const path of ['invoice-imports', 'bill-imports']) {
    expectError(t, await direct.api.request('POST', `/v1/${path}/upload`, { body: { file } }), 422, 'unprocessable_entity', { message: /direct mode/ });
  }
  t.same(await tally(direct.books), before, 'in direct mode nothing is written');

  const cash = await world(t, { vatScheme: 'standard', vatAccountingBasis: 'cash', vatRegistrationDate: '2020-01-01' }, dayAfterCutover);
  await openingBalances(t, cash, 'xero');
  const ready = await tally(cash.books);
  expectError(t, await cash.api.request('POST', '/v1/invoice-imports/upload', { body: { file } }), 422, 'CASH_VAT_UNSUPPORTED');
  expectError(t, await cash.api.request('POST', '/v1/bill-imports/upload', { body: { file: fixture('xero/bills.csv') } }), 422, 'CASH_VAT_UNSUPPORTED');
  t.same(await tally(cash.books), ready, 'on the cash basis nothing is written, even with a clearing opening balance');
});

t.test('Xero invoices: previewed, matched, confirmed to clear 1198; one active; void restores the opening balance', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  const { api, books } = w;
  await openingBalances(t, w, 'xero');
  // Accounts Receivable 24,802.66 went to 1198 (clearing).
  let tb = await trialBalanceAt(api, '2025-03-31');
  t.equal(tb['1198'], 2480266);
  t.equal(tb['1100'] ?? 0, 0);
  await contacts(t, w, 'xero');
  const known = await contactsByName(api);
  t.equal(known.size, 15);

  const preview = await upload(t, w, 'invoice-imports', fixture('xero/invoices.csv'), 'invoices.csv');
  t.equal(preview.status, 'pending');
  t.equal(preview.direction, 'receivables');
  t.equal(preview.cutoverDate, '2025-03-31');
  // 12 line rows = 8 documents + 4 further lines (ignored); 8 + 0 + 4 = 12.
  // Gross 7,356.00 + 4,470.00 + 2,880.00 + 6,192.00 + 1,850.16 + 3,600.00 + 2,242.50 + 1,152.00 = 29,742.66;
  // paid 3,000.00 + 1,440.00 + 500.00 = 4,940.00; outstanding 29,742.66 − 4,940.00 = 24,802.66.
  t.same(preview.stats, {
    totalRows: 12,
    validRows: 8,
    errorRows: 0,
    ignoredRows: 4,
    totalGross: '29742.66',
    totalPaid: '4940.00',
    totalOutstanding: '24802.66',
  });
  // 1198 holds 24,802.66; the documents move −24,802.66; 24,802.66 − 24,802.66 = 0.00.
  t.same(preview.clearingProof, { account: '1198', openingBalance: '24802.66', importDelta: '-24802.66', netBalance: '0.00', cleared: true });
  t.equal(preview.canConfirm, true, JSON.stringify(preview.blockers));
  t.same(
    preview.ignored.map((i: { rowIndex: number; reason: string }) => i.rowIndex),
    [1, 3, 4, 9],
    'the further lines of INV-0412, INV-0418 (two) and INV-0429',
  );
  const rows = byNumber(preview.rows);
  t.same([...rows.keys()], ['INV-0412', 'INV-0418', 'INV-0421', 'INV-0425', 'INV-0427', 'INV-0429', 'INV-0431', 'INV-0433']);
  // INV-0412: 7,356.00 − 3,000.00 = 4,356.00; INV-0433: 1,152.00 − 500.00 = 652.00.
  t.match(rows.get('INV-0412'), { gross: '7356.00', paid: '3000.00', outstanding: '4356.00' });
  t.match(rows.get('INV-0433'), { gross: '1152.00', paid: '500.00', outstanding: '652.00' });
  t.match(rows.get('INV-0427'), { gross: '1850.16', paid: '0.00', outstanding: '1850.16' });
  t.match(
    rows.get('INV-0429')?.contact,
    { outcome: 'match', contactId: known.get('Hollybank Homes Ltd')?.id, contactName: 'Hollybank Homes Ltd' },
    '"Hollybank Homes": exact once Ltd is dropped',
  );
  t.match(rows.get('INV-0425')?.contact, { outcome: 'fuzzy', confidence: 95, contactId: known.get('Brightwater Lettings Ltd')?.id }, '"Letings" is 95% alike');
  t.match(
    rows.get('INV-0418')?.contact,
    { outcome: 'match', contactId: known.get('Cooper & Vale Architects LLP')?.id },
    'the exact name beats the 92% near duplicate',
  );
  for (const n of ['INV-0412', 'INV-0421', 'INV-0427', 'INV-0431', 'INV-0433']) t.equal(rows.get(n)?.contact.outcome, 'match', `${n} matches exactly`);
  t.match(preview.warnings, [/1 row/]);
  const pending = await tally(books);

  const confirmed = await api.request('POST', `/v1/invoice-imports/${preview.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
  // 8 documents; INV-0412, INV-0421 and INV-0433 were part-paid: 3 synthetic payments; every contact matched: none created.
  t.match(confirmed.body.data, {
    importId: preview.importId,
    direction: 'receivables',
    documentsCreated: 8,
    syntheticPaymentsCreated: 3,
    contactsCreated: 0,
    clearingBalance: '0.00',
  });
  const written = await tally(books);
  t.equal(written.invoices - pending.invoices, 8);
  t.equal(written.payments - pending.payments, 3);
  t.equal(written.contacts, pending.contacts, 'no contact created');
  // History brought forward raises no events, as a journal import raises none: 8 + 3 transactions, no outbox rows.
  t.equal(written.transactions - pending.transactions, 11, 'a clearing journal per document and per synthetic payment');
  t.equal(written.outbox, pending.outbox, 'no transaction.created or transaction.posted for the history');
  // Every row of the file recorded once: 8 created + 4 further lines skipped = 12.
  t.equal(written.data_import_rows - pending.data_import_rows, 12);

  const invoices = await documents(w, 'invoices');
  t.equal(invoices.size, 8);
  // Due before 1 April 2025: INV-0412 (13/02), INV-0418 (05/03), INV-0421 (03/03), INV-0425 (28/03): overdue; the rest sent.
  for (const n of ['INV-0412', 'INV-0418', 'INV-0421', 'INV-0425']) t.equal(invoices.get(n)?.status, 'overdue', `${n} overdue`);
  for (const n of ['INV-0427', 'INV-0429', 'INV-0431', 'INV-0433']) t.equal(invoices.get(n)?.status, 'sent', `${n} sent`);
  // INV-0412 7,356.00 (VAT 1,226.00, its TaxTotal, kept for credit notes) paid 3,000.00 due 4,356.00; INV-0421 2,880.00 − 1,440.00 = 1,440.00; INV-0433 1,152.00 − 500.00 = 652.00.
  t.match(invoices.get('INV-0412'), { total: 735600, vatAmount: 122600, amountPaid: 300000, amountDue: 435600, contactName: 'Hollybank Homes Ltd' });
  t.match(invoices.get('INV-0421'), { total: 288000, amountPaid: 144000, amountDue: 144000, contactName: 'Eleanor Whitfield' });
  t.match(invoices.get('INV-0433'), { total: 115200, amountPaid: 50000, amountDue: 65200 });
  t.match(invoices.get('INV-0425'), { total: 619200, amountPaid: 0, amountDue: 619200, contactName: 'Brightwater Lettings Ltd' });
  t.match(invoices.get('INV-0429'), { contactName: 'Hollybank Homes Ltd' });

  tb = await trialBalanceAt(api, '2025-03-31');
  t.equal(tb['1198'] ?? 0, 0, '1198 cleared');
  // 1100 = the outstanding total 24,802.66 = Trade Debtors in the trial balance.
  t.equal(tb['1100'], 2480266);
  t.equal(tb['2198'], -514764, 'the bills clearing account is untouched: Accounts Payable 5,147.64 credit');

  const detail = await api.request('GET', `/v1/invoice-imports/${preview.importId}`);
  t.equal(detail.body.data.status, 'completed');
  t.match(detail.body.data.import, { status: 'completed', totalRows: 12, createdCount: 8, skippedCount: 4, errorCount: 0 });
  t.equal(detail.body.data.canConfirm, false);
  t.same(
    (await api.request('GET', '/v1/invoice-imports')).body.data.map((r: { id: string }) => r.id),
    [preview.importId],
  );
  t.same((await api.request('GET', '/v1/bill-imports')).body.data, [], 'a bill import list of its own');

  // One active per direction: a second upload, confirm again and delete are refused, writing nothing.
  const completed = await tally(books);
  expectError(t, await api.request('POST', '/v1/invoice-imports/upload', { body: { file: fixture('xero/invoices.csv') } }), 409, 'SINGLETON_VIOLATION', {
    message: /void/,
  });
  expectError(t, await api.request('POST', `/v1/invoice-imports/${preview.importId}/confirm`), 409, 'conflict');
  expectError(t, await api.request('DELETE', `/v1/invoice-imports/${preview.importId}`), 409, 'conflict');
  t.same(await tally(books), completed, 'the refused requests left no trace');

  const voided = await api.request('POST', `/v1/invoice-imports/${preview.importId}/void`);
  t.equal(voided.status, 200, JSON.stringify(voided.body.error ?? ''));
  t.match(voided.body.data, { voided: true, importId: preview.importId, documentsVoided: 8 });
  const after = await documents(w, 'invoices');
  t.ok(
    [...after.values()].every((d) => d.status === 'void'),
    'every migrated invoice is void',
  );
  tb = await trialBalanceAt(api, '2025-03-31');
  t.equal(tb['1198'], 2480266, '1198 holds the debtors of the trial balance again');
  t.equal(tb['1100'] ?? 0, 0);
  // Voided again: 409 already_voided (was 404 not_found "it is voided"), nothing written.
  const voidedTally = await tally(books);
  expectError(t, await api.request('POST', `/v1/invoice-imports/${preview.importId}/void`), 409, 'already_voided', { message: /already void/ });
  t.same(await tally(books), voidedTally, 'the refused void left no trace');
  t.equal((await contactsByName(api)).size, 15, 'contacts stay');
  const again = await upload(t, w, 'invoice-imports', fixture('xero/invoices.csv'));
  t.equal(again.canConfirm, true, 'after the void the invoices may be imported again');
  t.same(again.blockers, []);
  // The void is the way to import again ("void it before importing again"): the preview says it can be confirmed, so confirm must do it.
  const beforeAgain = await tally(books);
  const reconfirmed = await api.request('POST', `/v1/invoice-imports/${again.importId}/confirm`);
  t.equal(reconfirmed.status, 200, `re-confirm after the void: ${JSON.stringify(reconfirmed.body.error ?? '')}`);
  if (reconfirmed.status === 200) {
    t.match(reconfirmed.body.data, { documentsCreated: 8, syntheticPaymentsCreated: 3, contactsCreated: 0 });
    t.equal((await trialBalanceAt(api, '2025-03-31'))['1100'], 2480266);
  } else {
    t.same(await tally(books), beforeAgain, 'the refused confirm at least wrote nothing');
  }
});

t.test('Xero bills: 2198 cleared and 2100 holds the creditors; void restores 2198', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  const { api, books } = w;
  await openingBalances(t, w, 'xero');
  await contacts(t, w, 'xero');
  const known = await contactsByName(api);
  const preview = await upload(t, w, 'bill-imports', fixture('xero/bills.csv'), 'bills.csv');
  t.equal(preview.direction, 'payables');
  // 8 line rows = 6 bills + 2 further lines; 6 + 0 + 2 = 8.
  // Gross 3,705.36 + 475.08 = 4,180.44; + 520.32 = 4,700.76; + 636.00 = 5,336.76; + 576.00 = 5,912.76; + 734.88 = 6,647.64;
  // paid 1,500.00; 6,647.64 − 1,500.00 = 5,147.64.
  t.same(preview.stats, {
    totalRows: 8,
    validRows: 6,
    errorRows: 0,
    ignoredRows: 2,
    totalGross: '6647.64',
    totalPaid: '1500.00',
    totalOutstanding: '5147.64',
  });
  // 2198 holds −5,147.64 (a credit); the bills move +5,147.64; net 0.00.
  t.same(preview.clearingProof, { account: '2198', openingBalance: '-5147.64', importDelta: '5147.64', netBalance: '0.00', cleared: true });
  const rows = byNumber(preview.rows);
  t.match(rows.get('MTS-20931'), { gross: '3705.36', paid: '1500.00', outstanding: '2205.36' });
  t.match(rows.get('PTF-55812')?.contact, { outcome: 'fuzzy', confidence: 95, contactId: known.get('Pennine Tool & Fixings Ltd')?.id });
  t.match(rows.get('CF/2025/0117')?.contact, { outcome: 'match', contactId: known.get('Calder Finishes Ltd')?.id });

  const pending = await tally(books);
  const confirmed = await api.request('POST', `/v1/bill-imports/${preview.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
  // 6 bills; MTS-20931 part-paid: 1 synthetic payment.
  t.match(confirmed.body.data, { direction: 'payables', documentsCreated: 6, syntheticPaymentsCreated: 1, contactsCreated: 0, clearingBalance: '0.00' });
  // Every row of the file recorded once: 6 created + 2 further lines skipped = 8.
  await recorded(t, w, 'bill-imports', preview.importId, pending, [8, 6, 2]);
  const bills = await documents(w, 'bills');
  t.equal(bills.size, 6);
  // Due before 1 April 2025: MTS-20931 (31/03), NWS-88102 (14/03): overdue; the rest approved.
  for (const n of ['MTS-20931', 'NWS-88102']) t.equal(bills.get(n)?.status, 'overdue', `${n} overdue`);
  for (const n of ['PTF-55812', 'CF/2025/0117', 'TR-1187', 'GE-4410938']) t.equal(bills.get(n)?.status, 'approved', `${n} approved`);
  // MTS-20931: 3,705.36 paid 1,500.00 due 2,205.36.
  t.match(bills.get('MTS-20931'), { total: 370536, amountPaid: 150000, amountDue: 220536, contactName: 'Marston Timber Supplies Ltd' });
  t.match(bills.get('PTF-55812'), { total: 47508, amountDue: 47508, contactName: 'Pennine Tool & Fixings Ltd' });
  let tb = await trialBalanceAt(api, '2025-03-31');
  t.equal(tb['2198'] ?? 0, 0, '2198 cleared');
  // 2100 = −5,147.64: Trade Creditors of the trial balance.
  t.equal(tb['2100'], -514764);
  t.equal(tb['1198'], 2480266, 'the invoices clearing account is untouched');

  const completed = await tally(books);
  expectError(t, await api.request('POST', '/v1/bill-imports/upload', { body: { file: fixture('xero/bills.csv') } }), 409, 'SINGLETON_VIOLATION');
  t.same(await tally(books), completed);
  const voided = await api.request('POST', `/v1/bill-imports/${preview.importId}/void`);
  t.equal(voided.status, 200, JSON.stringify(voided.body.error ?? ''));
  t.equal(voided.body.data.documentsVoided, 6);
  tb = await trialBalanceAt(api, '2025-03-31');
  t.equal(tb['2198'], -514764, '2198 holds the creditors again');
  t.equal(tb['2100'] ?? 0, 0);
  const voidedTally = await tally(books);
  expectError(t, await api.request('POST', `/v1/bill-imports/${preview.importId}/void`), 409, 'already_voided', { message: /already void/ });
  t.same(await tally(books), voidedTally, 'voided again: 409, nothing written');
  // The same bills again after the void: confirmed afresh.
  const again = await upload(t, w, 'bill-imports', fixture('xero/bills.csv'));
  t.equal(again.canConfirm, true, JSON.stringify(again.blockers));
  const reconfirmed = await api.request('POST', `/v1/bill-imports/${again.importId}/confirm`);
  t.equal(reconfirmed.status, 200, JSON.stringify(reconfirmed.body.error ?? ''));
  t.match(reconfirmed.body.data, { documentsCreated: 6, syntheticPaymentsCreated: 1 });
  t.equal((await trialBalanceAt(api, '2025-03-31'))['2100'], -514764);
});

t.test('a document already in the books or dated after the cutover blocks confirm; nothing written', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  const { api, books } = w;
  await openingBalances(t, w, 'xero');
  await contacts(t, w, 'xero');
  const marston = (await contactsByName(api)).get('Marston Timber Supplies Ltd')?.id;
  // Marston's MTS-20931 already entered by hand (a draft of £10.00 + VAT).
  const bill = await api.request('POST', '/v1/bills', {
    body: {
      contactId: marston,
      billNumber: 'MTS-20931',
      issueDate: '2025-02-21',
      items: [{ description: 'Oak boards', quantity: 1, unitPrice: 1000, vatRate: 'standard' }],
    },
  });
  t.equal(bill.status, 201, JSON.stringify(bill.body.error ?? ''));
  // GE-4410938 dated 2 April 2025 (due 2 May) instead of 18 March: after the cutover.
  const file = fixture('xero/bills.csv').replace(
    'GE-4410938,Electricity February,18/03/2025,01/04/2025',
    'GE-4410938,Electricity February,02/04/2025,02/05/2025',
  );
  const preview = await upload(t, w, 'bill-imports', file);
  t.same(preview.errors, [], 'every row readable');
  const rows = new Map((preview.rows as (Row & { status: string; error: string | null })[]).map((r) => [r.docNumber, r]));
  t.equal(rows.get('MTS-20931')?.status, 'duplicate');
  t.match(rows.get('MTS-20931')?.error, /already in these books/);
  t.equal(rows.get('GE-4410938')?.status, 'after_cutover');
  t.match(rows.get('GE-4410938')?.error, /after the cutover/);
  t.equal(rows.get('TR-1187')?.status, 'ready');
  t.equal(preview.clearingProof.cleared, true, 'the totals still clear: only the two rows block');
  t.equal(preview.canConfirm, false);
  t.match(preview.blockers, [/1 document\(s\) are already in these books/, /1 document\(s\) are dated after the cutover/]);
  const before = await tally(books);
  expectError(t, await api.request('POST', `/v1/bill-imports/${preview.importId}/confirm`), 422, 'unprocessable_entity');
  t.same(await tally(books), before, 'the refused confirm left no trace');
});

t.test('FreeAgent and QuickBooks: invoices and bills clear both accounts; paid and draft rows are ignored', async (t) => {
  const cases = [
    {
      provider: 'freeagent',
      // Debtors 3,760.00 + 2,820.00 + 7,350.00 + 1,416.00 + 530.00 + 3,945.00 + 2,331.92 = 22,152.92;
      // gross 5,760.00 + 2,820.00 + 7,350.00 + 1,416.00 + 780.00 + 3,945.00 + 2,331.92 = 24,402.92; paid 2,000.00 + 250.00 = 2,250.00.
      invoices: { totalRows: 9, validRows: 7, errorRows: 0, ignoredRows: 2, totalGross: '24402.92', totalPaid: '2250.00', totalOutstanding: '22152.92' },
      invoiceResult: { documentsCreated: 7, syntheticPaymentsCreated: 2 },
      // Creditors 1,137.48 + 2,160.00 + 58.80 + 2,450.00 + 702.00 = 6,508.28;
      // gross 1,137.48 + 2,160.00 + 58.80 + 3,450.00 + 702.00 = 7,508.28; paid 1,000.00.
      bills: { totalRows: 6, validRows: 5, errorRows: 0, ignoredRows: 1, totalGross: '7508.28', totalPaid: '1000.00', totalOutstanding: '6508.28' },
      billResult: { documentsCreated: 5, syntheticPaymentsCreated: 1 },
      debtors: 2215292,
      creditors: -650828,
      fuzzy: { invoice: ['FDS-0138', 'Severn & Avon Brewing Co Ltd', 95], bill: ['PF-0419', 'Pixel Foundry Ltd', 92] },
      exact: { invoice: ['FDS-0136', 'Halcyon Botanicals Ltd'], bill: ['AGA-1042', 'Ashton Gate Accountancy LLP'] },
    },
    {
      provider: 'quickbooks',
      // Debtors 1,846.00 + 1,278.60 + 5,412.00 + 2,100.00 + 2,460.00 + 936.48 + 684.00 + 1,929.36 = 16,646.44;
      // gross 20,746.44 (README); paid 2,000.00 + 2,100.00 = 4,100.00.
      invoices: { totalRows: 9, validRows: 8, errorRows: 0, ignoredRows: 1, totalGross: '20746.44', totalPaid: '4100.00', totalOutstanding: '16646.44' },
      invoiceResult: { documentsCreated: 8, syntheticPaymentsCreated: 2 },
      // Creditors 768.40 + 2,750.00 + 842.16 + 486.00 + 395.40 + 311.52 = 5,553.48; gross 6,053.48; paid 500.00.
      bills: { totalRows: 7, validRows: 6, errorRows: 0, ignoredRows: 1, totalGross: '6053.48', totalPaid: '500.00', totalOutstanding: '5553.48' },
      billResult: { documentsCreated: 6, syntheticPaymentsCreated: 1 },
      debtors: 1664644,
      creditors: -555348,
      fuzzy: { invoice: ['1090', 'Broadland Motors Ltd', 93], bill: ['ECE-7765', 'Eastern Catering Equipment Ltd', 96] },
      exact: { invoice: ['1088', 'Wensum Events Ltd'], bill: ['RW-2291', 'Roastworks Coffee Ltd'] },
    },
  ] as const;
  for (const c of cases) {
    await t.test(c.provider, async (t) => {
      const w = await world(t, {}, dayAfterCutover);
      await openingBalances(t, w, c.provider);
      await contacts(t, w, c.provider);
      const known = await contactsByName(w.api);
      for (const [path, stats, result, fuzzy, exact, clearing] of [
        ['invoice-imports', c.invoices, c.invoiceResult, c.fuzzy.invoice, c.exact.invoice, '1198'],
        ['bill-imports', c.bills, c.billResult, c.fuzzy.bill, c.exact.bill, '2198'],
      ] as const) {
        const preview = await upload(t, w, path, fixture(`${c.provider}/${path === 'invoice-imports' ? 'invoices' : 'bills'}.csv`));
        t.same(preview.stats, stats, `${path} stats`);
        t.equal(preview.clearingProof.cleared, true, `${clearing} clears`);
        const rows = byNumber(preview.rows);
        t.match(rows.get(fuzzy[0])?.contact, { outcome: 'fuzzy', contactId: known.get(fuzzy[1])?.id, confidence: fuzzy[2] }, `${fuzzy[0]} fuzzy`);
        t.match(rows.get(exact[0])?.contact, { outcome: 'match', contactId: known.get(exact[1])?.id }, `${exact[0]} exact after normalisation`);
        const pending = await tally(w.books);
        const confirmed = await w.api.request('POST', `/v1/${path}/${preview.importId}/confirm`);
        t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
        t.match(confirmed.body.data, { ...result, contactsCreated: 0, clearingBalance: '0.00' });
        // Every row recorded once: the valid rows created + the ignored rows skipped = rows (the stats above, worked by hand).
        await recorded(t, w, path, preview.importId, pending, [stats.totalRows, stats.validRows, stats.ignoredRows]);
      }
      const tb = await trialBalanceAt(w.api, '2025-03-31');
      t.equal(tb['1198'] ?? 0, 0);
      t.equal(tb['2198'] ?? 0, 0);
      t.equal(tb['1100'], c.debtors);
      t.equal(tb['2100'], c.creditors);
    });
  }
});

t.test('a payment recorded after the migration makes void refuse, writing nothing; contacts not found are created', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  const { api, books } = w;
  await openingBalances(t, w, 'xero');
  // No contacts in the books: each name creates one; "Hollybank Homes Ltd" and "Hollybank Homes" are one.
  const preview = await upload(t, w, 'invoice-imports', fixture('xero/invoices.csv'));
  t.ok(preview.rows.every((r: Row) => r.contact.outcome === 'create'));
  const confirmed = await api.request('POST', `/v1/invoice-imports/${preview.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
  // 8 invoices to 7 names: Hollybank Homes (twice), Cooper & Vale, Eleanor Whitfield, Brightwater Letings, Kirkgate, Daniel Okafor, Meanwood.
  t.match(confirmed.body.data, { documentsCreated: 8, syntheticPaymentsCreated: 3, contactsCreated: 7 });
  const made = await contactsByName(api);
  t.equal(made.size, 7);
  t.equal(made.get('Hollybank Homes Ltd')?.contactType, 'customer');
  t.ok(made.has('Brightwater Letings Ltd'), 'created as the file spells it');

  const invoice = (await documents(w, 'invoices')).get('INV-0418');
  // INV-0418 owes 4,470.00; £1,000.00 of it comes in on 1 April 2025.
  const paid = await api.request('POST', `/v1/invoices/${invoice?.id}/payments`, { body: { amount: 100000, date: '2025-04-01' } });
  t.equal(paid.status, 201, JSON.stringify(paid.body.error ?? ''));
  // 4,470.00 − 1,000.00 = 3,470.00.
  t.equal(paid.body.data.amountDue, 347000);
  const before = await tally(books);
  const balances = await trialBalanceAt(api, '2025-04-01');
  // 1100: 24,802.66 − 1,000.00 = 23,802.66.
  t.equal(balances['1100'], 2380266);
  expectError(t, await api.request('POST', `/v1/invoice-imports/${preview.importId}/void`), 422, 'unprocessable_entity', { message: /INV-0418/ });
  t.same(await tally(books), before, 'the refused void left no trace');
  t.same(await trialBalanceAt(api, '2025-04-01'), balances, 'the ledger is as it was');
  t.equal((await documents(w, 'invoices')).get('INV-0418')?.status, 'overdue', 'INV-0418 stays open');
  t.equal((await api.request('GET', `/v1/invoice-imports/${preview.importId}`)).body.data.status, 'completed');

  // Remove the payment and the void goes through.
  t.equal((await api.request('DELETE', `/v1/invoices/${invoice?.id}/payments/${paid.body.data.id}`)).status, 200);
  const voided = await api.request('POST', `/v1/invoice-imports/${preview.importId}/void`);
  t.equal(voided.status, 200, JSON.stringify(voided.body.error ?? ''));
  t.equal((await trialBalanceAt(api, '2025-04-01'))['1198'], 2480266);
});

t.test(
  'the cash basis chosen after the upload: the preview says so and confirm is refused, writing nothing; a second pending import is refused once one is confirmed',
  async (t) => {
    const w = await world(t, {}, dayAfterCutover);
    const { api, books } = w;
    await openingBalances(t, w, 'xero');
    const first = await upload(t, w, 'invoice-imports', fixture('xero/invoices.csv'));
    const second = await upload(t, w, 'invoice-imports', fixture('xero/invoices.csv'));
    t.equal(first.canConfirm, true);
    t.equal((await api.request('PUT', '/v1/organisation/settings', { body: { vatAccountingBasis: 'cash' } })).status, 200);
    const before = await tally(books);
    expectError(t, await api.request('POST', `/v1/invoice-imports/${first.importId}/confirm`), 422, 'CASH_VAT_UNSUPPORTED');
    t.same(await tally(books), before, 'the refused confirm left no trace');
    const shown = (await api.request('GET', `/v1/invoice-imports/${first.importId}`)).body.data;
    t.equal(shown.canConfirm, false, 'the preview does not offer a confirm that will be refused');
    t.match(shown.blockers, [/cash/]);

    t.equal((await api.request('PUT', '/v1/organisation/settings', { body: { vatAccountingBasis: 'accrual' } })).status, 200);
    t.equal((await api.request('POST', `/v1/invoice-imports/${first.importId}/confirm`)).status, 200);
    const completed = await tally(books);
    expectError(t, await api.request('POST', `/v1/invoice-imports/${second.importId}/confirm`), 409, 'SINGLETON_VIOLATION');
    t.same(await tally(books), completed);
    expectError(t, await api.request('POST', `/v1/invoice-imports/${second.importId}/void`), 404, 'not_found', { message: /pending/ });
    t.equal((await api.request('DELETE', `/v1/invoice-imports/${second.importId}`)).status, 200, 'the pending one may be deleted');
  },
);

/** A fixture with the lines of one document (its number) left out. */
const fixtureWithout = (name: string, number: string): string =>
  fixture(name)
    .split('\n')
    .filter((line) => !line.includes(number))
    .join('\n');

/** An import whose clearing account would not clear: it says so, and its confirm is refused (422) leaving no trace. */
async function refusedUncleared(
  t: Test,
  w: Awaited<ReturnType<typeof world>>,
  kind: string,
  preview: { importId: string; canConfirm: boolean; blockers: unknown },
  account: string,
) {
  t.equal(preview.canConfirm, false);
  t.match(preview.blockers, [new RegExp(`${account} would not clear`)]);
  const before = await tally(w.books);
  expectError(t, await w.api.request('POST', `/v1/${kind}/${preview.importId}/confirm`), 422, 'unprocessable_entity', { message: new RegExp(account) });
  t.same(await tally(w.books), before, 'the refused confirm left no trace');
}

t.test('a clearing mismatch: the outstanding total differs from the debtors, so confirm is refused and nothing written', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  const { api, books } = w;
  await openingBalances(t, w, 'xero');
  // Without INV-0433 (its one line): outstanding 24,802.66 − 652.00 = 24,150.66.
  const file = fixtureWithout('xero/invoices.csv', 'INV-0433');
  const start = await tally(books);
  const preview = await upload(t, w, 'invoice-imports', file);
  // 11 rows = 7 documents + 4 further lines.
  t.match(preview.stats, { totalRows: 11, validRows: 7, errorRows: 0, ignoredRows: 4, totalOutstanding: '24150.66' });
  // 24,802.66 − 24,150.66 = 652.00 left on 1198.
  t.same(preview.clearingProof, { account: '1198', openingBalance: '24802.66', importDelta: '-24150.66', netBalance: '652.00', cleared: false });
  await refusedUncleared(t, w, 'invoice-imports', preview, '1198');
  t.equal((await trialBalanceAt(api, '2025-03-31'))['1198'], 2480266);
  // A pending import may be deleted.
  t.equal((await api.request('DELETE', `/v1/invoice-imports/${preview.importId}`)).status, 200);
  expectError(t, await api.request('GET', `/v1/invoice-imports/${preview.importId}`), 404, 'not_found');
  t.same(await tally(books), start, 'a deleted import leaves nothing');
});

t.test('a bills file that does not clear 2198: confirm is refused and nothing written', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  const { api } = w;
  await openingBalances(t, w, 'xero');
  // Without TR-1187 (its one line, 576.00 outstanding): 5,147.64 − 576.00 = 4,571.64.
  const file = fixtureWithout('xero/bills.csv', 'TR-1187');
  const preview = await upload(t, w, 'bill-imports', file);
  // 7 rows = 5 bills + 2 further lines (MTS-20931's and PTF-55812's).
  t.match(preview.stats, { totalRows: 7, validRows: 5, errorRows: 0, ignoredRows: 2, totalOutstanding: '4571.64' });
  // 2198 holds −5,147.64; the bills move +4,571.64; −5,147.64 + 4,571.64 = −576.00 left.
  t.same(preview.clearingProof, { account: '2198', openingBalance: '-5147.64', importDelta: '4571.64', netBalance: '-576.00', cleared: false });
  await refusedUncleared(t, w, 'bill-imports', preview, '2198');
  t.equal((await trialBalanceAt(api, '2025-03-31'))['2198'], -514764, '2198 holds the creditors still');
  t.equal((await api.request('GET', `/v1/bill-imports/${preview.importId}`)).body.data.status, 'pending');
});

t.test('a broken invoices file: every row once as valid or an error with its field; confirm refused while rows are unreadable', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  const { api, books } = w;
  await openingBalances(t, w, 'xero');
  const preview = await upload(t, w, 'invoice-imports', fixture('messy/invoices-broken.csv'));
  // 7 rows = 2 valid (INV-0201, INV-0206) + 5 errors; outstanding 600.00 + 600.00 = 1,200.00.
  t.match(preview.stats, { totalRows: 7, validRows: 2, errorRows: 5, ignoredRows: 0, totalOutstanding: '1200.00' });
  t.same(
    preview.rows.map((r: Row) => [r.docNumber, r.outstanding]),
    [
      ['INV-0201', '600.00'],
      ['INV-0206', '600.00'],
    ],
  );
  const errors = new Map((preview.errors as { rowIndex: number; field: string }[]).map((e) => [e.rowIndex, e.field]));
  t.equal(errors.get(1), 'date', 'row 2: 2025-02-30');
  t.equal(errors.get(2), 'paid', 'row 3: paid 300.00 > total 240.00');
  t.equal(errors.get(3), 'total', 'row 4: a credit note');
  t.equal(errors.get(4), 'number', 'row 5: INV-0201 again on another document');
  t.match(errors.get(5), /^(dueDate|row)$/, 'row 6: three cells');
  t.equal(preview.canConfirm, false);
  t.match(preview.blockers, [/5 row\(s\) cannot be read/]);
  const before = await tally(books);
  expectError(t, await api.request('POST', `/v1/invoice-imports/${preview.importId}/confirm`), 422, 'unprocessable_entity', { message: /cannot be read/ });
  t.same(await tally(books), before, 'the refused confirm left no trace');
});

t.test('a broken Xero bills file: a second line row ignored, four rows refused with their field, the same number from another supplier kept', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  const { api, books } = w;
  await openingBalances(t, w, 'xero');
  const preview = await upload(t, w, 'bill-imports', fixture('messy/bills-broken.csv'));
  // 8 rows = 3 valid (KP-5510 Kestrel, CCC-118, KP-5510 Avon Gorge) + 1 ignored (KP-5510's second line) + 4 errors.
  // Outstanding 432.00 + 186.00 + 54.00 = 672.00: a supplier's number is its own, so Avon Gorge's KP-5510 is another bill, not a clash.
  t.match(preview.stats, { totalRows: 8, validRows: 3, errorRows: 4, ignoredRows: 1, totalOutstanding: '672.00' });
  t.same(
    preview.rows.map((r: Row & { contactName: string }) => [r.docNumber, r.contactName, r.outstanding]),
    [
      ['KP-5510', 'Kestrel Print Ltd', '432.00'],
      ['CCC-118', 'Clifton Cleaning Co', '186.00'],
      ['KP-5510', 'Avon Gorge Couriers Ltd', '54.00'],
    ],
  );
  const errors = new Map((preview.errors as { rowIndex: number; field: string }[]).map((e) => [e.rowIndex, e.field]));
  t.equal(errors.size, 4);
  t.equal(errors.get(2), 'contact', 'row 3: no *ContactName');
  t.equal(errors.get(3), 'total', 'row 4: 12O.00 with a letter O');
  t.match(errors.get(4), /^(due|paid)$/, 'row 5: 300.00 − 100.00 = 200.00, not the 250.00 due');
  t.equal(errors.get(5), 'date', 'row 6: 31/04/2025');
  t.equal(preview.canConfirm, false);
  const before = await tally(books);
  expectError(t, await api.request('POST', `/v1/bill-imports/${preview.importId}/confirm`), 422, 'unprocessable_entity', { message: /cannot be read/ });
  t.same(await tally(books), before, 'the refused confirm left no trace');
});

t.test('a BOM, CRLF endings and £ amounts: three invoices read clean and confirmed against a matching trial balance', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  const { api } = w;
  // Debtors 1,140.00 + 286.60 + 72.00 = 1,498.60 against Sales 1,498.60.
  const tb = ['Account,Debit,Credit', 'Trade Debtors,1498.60,', 'Sales,,1498.60'].join('\n');
  const up = await api.request('POST', '/v1/opening-balances/upload', { body: { file: tb, clearingMode: 'clearing', cutoverDate: '2025-03-31' } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.equal((await api.request('POST', `/v1/opening-balances/${up.body.data.importId}/confirm`)).status, 200);
  const file = fixture('messy/invoices-bom-crlf.csv');
  t.equal(file.charCodeAt(0), 0xfeff);
  const preview = await upload(t, w, 'invoice-imports', file);
  // 4 rows = 3 valid + TOTAL ignored; amount 1,140.00 + 486.60 + 72.00 = 1,698.60; open 1,498.60; paid 486.60 − 286.60 = 200.00.
  t.same(preview.stats, { totalRows: 4, validRows: 3, errorRows: 0, ignoredRows: 1, totalGross: '1698.60', totalPaid: '200.00', totalOutstanding: '1498.60' });
  t.same(
    preview.rows.map((r: Row & { contactName: string }) => [r.docNumber, r.contactName, r.gross, r.paid, r.outstanding]),
    [
      ['3107', 'Hethersett Parish Council', '1140.00', '0.00', '1140.00'],
      ['3115', 'Dunn, Ashby & Co', '486.60', '200.00', '286.60'],
      ['3121', 'Priya Raman', '72.00', '0.00', '72.00'],
    ],
  );
  t.equal(preview.clearingProof.cleared, true);
  const pending = await tally(w.books);
  const confirmed = await api.request('POST', `/v1/invoice-imports/${preview.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
  // 3 invoices, 3115 part-paid: 1 synthetic payment; 3 new customers.
  t.match(confirmed.body.data, { documentsCreated: 3, syntheticPaymentsCreated: 1, contactsCreated: 3 });
  // 3 created + the TOTAL row skipped = 4.
  await recorded(t, w, 'invoice-imports', preview.importId, pending, [4, 3, 1]);
  const balances = await trialBalanceAt(api, '2025-03-31');
  t.equal(balances['1100'], 149860);
  t.equal(balances['1198'] ?? 0, 0);
  t.ok((await contactsByName(api)).has('Dunn, Ashby & Co'), 'the quoted name with a comma is one contact');
});

t.test('Xero bills with a BOM and CRLF endings: the same rows and totals as the clean file, every row recorded once', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  const { api, books } = w;
  await openingBalances(t, w, 'xero');
  const file = fixture('messy/bills-bom-crlf.csv');
  t.equal(file.charCodeAt(0), 0xfeff, 'the fixture opens with the BOM');
  t.equal(file.split('\r\n').length, 10, 'the header, 8 rows and nothing after the last CRLF');
  const clean = await upload(t, w, 'bill-imports', fixture('xero/bills.csv'));
  const preview = await upload(t, w, 'bill-imports', file);
  // As xero/bills.csv (messy/README.md): 8 rows = 6 bills + 2 further lines; gross 6,647.64, paid 1,500.00,
  // outstanding 2,205.36 + 475.08 + 520.32 + 636.00 + 576.00 + 734.88 = 5,147.64.
  t.same(preview.stats, {
    totalRows: 8,
    validRows: 6,
    errorRows: 0,
    ignoredRows: 2,
    totalGross: '6647.64',
    totalPaid: '1500.00',
    totalOutstanding: '5147.64',
  });
  t.same(
    preview.ignored.map((i: { rowIndex: number }) => i.rowIndex),
    [1, 3],
    'rows 2 and 4: the further lines of MTS-20931 and PTF-55812',
  );
  t.same(preview.stats, clean.stats, 'the clean file’s stats');
  const shown = (p: { rows: (Row & { contactName: string })[] }) => p.rows.map((r) => [r.docNumber, r.contactName, r.gross, r.paid, r.outstanding]);
  t.same(shown(preview), shown(clean), 'the clean file’s rows');
  t.same(preview.clearingProof, { account: '2198', openingBalance: '-5147.64', importDelta: '5147.64', netBalance: '0.00', cleared: true });
  t.equal((await api.request('DELETE', `/v1/bill-imports/${clean.importId}`)).status, 200, 'the clean one deleted: one is confirmed');

  const pending = await tally(books);
  const confirmed = await api.request('POST', `/v1/bill-imports/${preview.importId}/confirm`);
  t.equal(confirmed.status, 200, JSON.stringify(confirmed.body.error ?? ''));
  // 6 bills, MTS-20931 part-paid: 1 synthetic payment; no contacts in the books: 6 suppliers created.
  t.match(confirmed.body.data, { documentsCreated: 6, syntheticPaymentsCreated: 1, contactsCreated: 6, clearingBalance: '0.00' });
  // 6 created + 2 further lines skipped = 8.
  await recorded(t, w, 'bill-imports', preview.importId, pending, [8, 6, 2]);
  const bills = await documents(w, 'bills');
  // MTS-20931: 3,705.36 paid 1,500.00 due 2,205.36.
  t.match(bills.get('MTS-20931'), { total: 370536, amountPaid: 150000, amountDue: 220536, contactName: 'Marston Timber Supplies Ltd' });
  t.equal(bills.get('GE-4410938')?.contactName, 'Gridline Energy Ltd');
  t.ok(
    [...bills.values()].every((b) => !/\r/.test(b.contactName)),
    'no contact name ends in \\r',
  );
  const tb = await trialBalanceAt(api, '2025-03-31');
  t.equal(tb['2198'] ?? 0, 0, '2198 cleared');
  // 2100 = −5,147.64, as the clean file leaves it.
  t.equal(tb['2100'], -514764);
});

t.test('a file past 5 MB is 413 and writes nothing', async (t) => {
  const w = await world(t, {}, dayAfterCutover);
  await openingBalances(t, w, 'xero');
  const before = await tally(w.books);
  const line = 'Hotwells Yoga Studio Ltd,INV-0201,2025-03-03,2025-04-02,GBP,500.00,100.00,600.00,0.00,600.00,Open\n';
  // 98 characters × 55,000 lines = 5,390,000 bytes > 5,242,880.
  const big = `Contact,Reference,Dated On,Due On,Currency,Net Value,Sales Tax Value,Total Value,Paid Value,Due Value,Status\n${line.repeat(55_000)}`;
  t.ok(big.length > 5 * 1024 * 1024);
  expectError(t, await w.api.request('POST', '/v1/bill-imports/upload', { raw: big, headers: { 'content-type': 'text/csv' } }), 413, 'payload_too_large');
  t.same(await tally(w.books), before);
});
