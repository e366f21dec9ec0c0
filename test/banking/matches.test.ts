/**
 * Matching bank lines over HTTP, as a bookkeeper reconciles a Starling
 * statement (fixtures/bank-statements/starling.csv) against the books:
 * - the upload suggests, for the £1,200.00 from Acme Widgets Ltd naming
 *   INV-1042, that invoice (due exactly £1,200.00); for the £850.00 rent,
 *   the bill of Smith, Jones & Co due £850.00; for Client Two's £2,400.00,
 *   the payment already recorded by hand on its invoice the day before
 *   (its invoice is paid, so no longer a candidate);
 * - confirm with acceptMatches records the first two as payments (the
 *   invoice and bill paid) and ties the third to the entry by hand, so the
 *   bank is not counted twice; undo takes the two payments back out and
 *   leaves the entry by hand;
 * - imported without matching, the same lines wait on suspense; the inbox
 *   suggests the same matches, and POST /transactions/{id}/match does each,
 *   a reconciled line staying reconciled;
 * - refusals leave the books as they were.
 * Figures worked by hand in the comments.
 */
import fs from 'node:fs';
import t from 'tap';
import type { Test } from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { projectFile } from '../../src/paths.js';

const starling = fs.readFileSync(projectFile('fixtures/bank-statements/starling.csv'), 'utf8');

type Balances = [string, number, number][];

async function ok(t: Test, api: Api, method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200) {
  const r = await api.request(method, path, body === undefined ? {} : { body });
  t.equal(r.status, status, `${method} ${path}: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
}

/**
 * Books on 21 November 2026: £1,000.00 of share capital banked on 1 February
 * 2024; invoice INV-1042 to Acme Widgets Ltd for £1,000.00 + £200.00 VAT and
 * INV-1043 to Client Two Ltd for £2,000.00 + £400.00 VAT, both sent, the
 * second paid by hand on 28 March 2024; the bill RENT-03 from Smith, Jones &
 * Co for £850.00 (no VAT) on 5100, approved.
 */
async function world(t: Test) {
  const books = await newBooks(t, { clock: '2026-11-21T10:00:00Z', organisation: { name: 'Harbour Design Ltd' } });
  const api = await serveBooks(t, books);
  const accounts = (await ok(t, api, 'GET', '/v1/accounts?flat=true')).accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  await ok(t, api, 'POST', '/v1/transactions', {
    date: '2024-02-01',
    description: 'Share capital',
    lines: [
      { accountId: id('1200'), amount: 100_000 },
      { accountId: id('3000'), amount: -100_000 },
    ],
  });
  await ok(t, api, 'PUT', '/v1/organisation/settings', { invoiceNextNumber: 1042 });
  const acme = (await ok(t, api, 'POST', '/v1/contacts', { contactType: 'customer', name: 'Acme Widgets Ltd' })).id as string;
  const two = (await ok(t, api, 'POST', '/v1/contacts', { contactType: 'customer', name: 'Client Two Ltd' })).id as string;
  const landlord = (await ok(t, api, 'POST', '/v1/contacts', { contactType: 'supplier', name: 'Smith, Jones & Co' })).id as string;
  const invoice = async (contactId: string, unitPrice: number) => {
    const created = await ok(t, api, 'POST', '/v1/invoices', {
      contactId,
      issueDate: '2024-02-20',
      dueDate: '2024-03-21',
      items: [{ description: 'Design work', quantity: 1, unitPrice, vatRate: 'standard' }],
    });
    await ok(t, api, 'POST', `/v1/invoices/${created.id}/send`, {}, 200);
    return { id: created.id as string, number: created.invoiceNumber as string };
  };
  const inv1042 = await invoice(acme, 100_000);
  const inv1043 = await invoice(two, 200_000);
  t.same([inv1042.number, inv1043.number], ['INV-1042', 'INV-1043'], 'numbered as the customers quote them');
  const byHand = await ok(t, api, 'POST', `/v1/invoices/${inv1043.id}/payments`, { amount: 240_000, date: '2024-03-28', method: 'bank_transfer' });
  const bill = await ok(t, api, 'POST', '/v1/bills', {
    contactId: landlord,
    billNumber: 'RENT-03',
    issueDate: '2024-03-01',
    dueDate: '2024-03-31',
    items: [{ description: 'Rent, March', quantity: 1, unitPrice: 85_000, vatRate: 'exempt', accountId: id('5100') }],
  });
  await ok(t, api, 'POST', `/v1/bills/${bill.id}/approve`, undefined, 200);
  const byHandEntry = (await ok(t, api, 'GET', `/v1/invoices/${inv1043.id}`)).payments[0];
  t.equal(byHandEntry.id, byHand.id);
  const handTxn = ((await ok(t, api, 'GET', '/v1/transactions?limit=100')) as { id: string; sourceType: string }[]).filter((x) => x.sourceType === 'payment');
  t.equal(handTxn.length, 1, 'one entry by hand');
  return { books, api, id, inv1042, inv1043, bill: bill.id as string, handTxn: handTxn[0]!.id };
}

async function trialBalance(api: Api): Promise<Balances> {
  const r = await api.request('GET', '/v1/reports/trial-balance?asOf=2024-03-31');
  return r.body.data.accounts
    .filter((a: { debit: number; credit: number }) => a.debit !== 0 || a.credit !== 0)
    .map((a: { code: string; debit: number; credit: number }) => [a.code, a.debit, a.credit]);
}

/**
 * Before the statement: 1200 holds 1,000.00 + 2,400.00 (Client Two, by hand) = 3,400.00; 1100 the
 * 1,200.00 Acme owes; 2100 the 850.00 rent owed; sales 1,000.00 + 2,000.00 = 3,000.00; output VAT
 * 200.00 + 400.00 = 600.00; rent 850.00 on 5100; capital 1,000.00.
 * Debits 3,400 + 1,200 + 850 = 5,450.00 = credits 850 + 600 + 1,000 + 3,000.
 */
const before: Balances = [
  ['1100', 120_000, 0],
  ['1200', 340_000, 0],
  ['2100', 0, 85_000],
  ['2200', 0, 60_000],
  ['3000', 0, 100_000],
  ['4000', 0, 300_000],
  ['5100', 85_000, 0],
];

/**
 * After the statement, matched: the rows sum to +1,200.00 − 850.00 − 4.35 × 3 − 1,234.56 − 2.00 + 2,400.00
 * = +1,500.39, of which the 2,400.00 was banked already by hand: 1200 = 3,400.00 + 1,500.39 − 2,400.00
 * = 2,500.39. Acme's 1,200.00 clears 1100; the rent payment clears 2100. HMRC's 1,234.56 goes to 2202
 * by the seed rule; the three Pret lines and the 2.00 fee wait on suspense: a debit of 13.05 + 2.00 = 15.05.
 * Debits 2,500.39 + 1,234.56 + 850.00 + 15.05 = 4,600.00 = credits 600 + 1,000 + 3,000.
 */
const matched: Balances = [
  ['1200', 250_039, 0],
  ['2200', 0, 60_000],
  ['2202', 123_456, 0],
  ['3000', 0, 100_000],
  ['4000', 0, 300_000],
  ['5100', 85_000, 0],
  ['9999', 1_505, 0],
];

interface Row {
  id: number;
  rowIndex: number;
  status: string;
  transactionId: string | null;
  suggestedMatch: { kind: string; id: string; number: string | null; amount: number } | null;
  matchedTo: { kind: string; id: string; number: string | null } | null;
}

t.test(
  'an upload suggests the invoice, the bill and the entry by hand; confirm with acceptMatches pays the two and ties the third; undo takes the payments back',
  async (t) => {
    const w = await world(t);
    const { api } = w;
    t.same(await trialBalance(api), before, 'the books before the statement');
    const up = await ok(t, api, 'POST', '/v1/bank-imports/upload', { file: starling, filename: 'starling.csv' });
    const suggested = (up.preview as Row[]).map((r) =>
      r.suggestedMatch ? [r.rowIndex, r.suggestedMatch.kind, r.suggestedMatch.id, r.suggestedMatch.amount] : [r.rowIndex, null],
    );
    t.same(
      suggested,
      [
        [1, 'invoice', w.inv1042.id, 120_000],
        [2, 'bill', w.bill, -85_000],
        [3, null],
        [4, null],
        [5, null],
        [6, null],
        [7, null],
        [8, 'transaction', w.handTxn, 240_000],
      ],
      'INV-1042 for the 1,200.00 in, the rent bill for the 850.00 out, the entry by hand for the 2,400.00 in',
    );
    t.equal((up.preview as Row[])[0]!.suggestedMatch!.number, 'INV-1042');

    // A row mapped to an account and matched at once is refused, and nothing is written.
    const both = await api.request('POST', `/v1/bank-imports/${up.importId}/confirm`, {
      body: { matches: { [String(up.preview[0].id)]: w.inv1042.id }, rowAccountMap: { [String(up.preview[0].id)]: w.id('4000') } },
    });
    expectError(t, both, 400, 'validation_error', { field: 'matches' });
    // A money-in row cannot pay a bill: 422 naming the row, and the whole confirm is refused.
    const wrongWay = await api.request('POST', `/v1/bank-imports/${up.importId}/confirm`, { body: { matches: { [String(up.preview[0].id)]: w.bill } } });
    expectError(t, wrongWay, 422, 'unprocessable_entity', { message: /^matches: row 1: the line is £1,200.00 into the bank, which cannot pay a bill/ });
    t.same(await trialBalance(api), before, 'refused confirms wrote nothing');
    t.equal((await ok(t, api, 'GET', `/v1/bank-imports/${up.importId}`)).status, 'pending');

    const dry = await ok(t, api, 'POST', `/v1/bank-imports/${up.importId}/confirm`, { acceptMatches: true, duplicates: 'skip', dryRun: true }, 200);
    t.match(dry, { created: 7, paid: 2, matched: 1, skipped: 0, rejected: 0, total: 8 }, 'the dry run says what confirm would do');
    t.same(await trialBalance(api), before, 'and writes nothing');

    const done = await ok(t, api, 'POST', `/v1/bank-imports/${up.importId}/confirm`, { acceptMatches: true }, 200);
    // 5 lines posted (3 Pret, HMRC, the fee) + 2 payments = 7 created; the 2,400.00 matched; 7 + 1 = 8 rows.
    t.match(done, { created: 7, paid: 2, matched: 1, skipped: 0, rejected: 0, total: 8, categorised: 1 });
    t.same(await trialBalance(api), matched, 'the bank holds the statement’s money once');
    t.match(
      await ok(t, api, 'GET', `/v1/invoices/${w.inv1042.id}`),
      { status: 'paid', amountDue: 0, paidDate: '2024-03-02' },
      'INV-1042 paid on the bank’s date',
    );
    t.match(await ok(t, api, 'GET', `/v1/bills/${w.bill}`), { status: 'paid', amountDue: 0 }, 'the rent bill paid');
    const detail = await ok(t, api, 'GET', `/v1/bank-imports/${up.importId}`);
    t.match(detail, { createdRows: 7, matchedRows: 1, skippedRows: 0, status: 'completed' });
    const rows = detail.rows as Row[];
    t.same(
      rows.map((r) => [r.rowIndex, r.status, r.matchedTo?.kind ?? null, r.matchedTo?.number ?? null]),
      [
        [1, 'created', 'invoice', 'INV-1042'],
        [2, 'created', 'bill', 'RENT-03'],
        [3, 'created', null, null],
        [4, 'created', null, null],
        [5, 'created', null, null],
        [6, 'created', null, null],
        [7, 'created', null, null],
        [8, 'matched', 'transaction', null],
      ],
    );
    t.equal(rows[7]!.transactionId, w.handTxn, 'the row holds the entry by hand');
    const payment = await ok(t, api, 'GET', `/v1/transactions/${rows[0]!.transactionId}`);
    t.match(payment, { sourceType: 'payment', date: '2024-03-02', reference: 'INV-1042' }, 'the payment’s entry, on the bank’s date, with its reference');
    const events = (await w.books.store.org(w.books.organisationId, 'live').db.selectFrom('outbox').select('event').orderBy('id').execute()).map(
      (e) => e.event,
    );
    t.ok(events.includes('invoice.paid'), 'invoice.paid raised');

    // The same statement again: every row is an earlier import's, the matched one included.
    const again = await ok(t, api, 'POST', '/v1/bank-imports/upload', { file: starling, filename: 'starling.csv' });
    t.equal(again.duplicates, 8, 'all eight rows are duplicates');
    t.same(
      (again.preview as Row[]).map((r) => r.suggestedMatch),
      Array(8).fill(null),
      'nothing left to suggest: the documents are paid and the entry is on a statement',
    );
    await ok(t, api, 'DELETE', `/v1/bank-imports/${again.importId}`, undefined, 200);

    // A payment a statement row holds stays while the import does: 409, and nothing changes.
    const acmePayment = (await ok(t, api, 'GET', `/v1/invoices/${w.inv1042.id}`)).payments[0].id as string;
    const heldPayment = await api.request('DELETE', `/v1/invoices/${w.inv1042.id}/payments/${acmePayment}`);
    expectError(t, heldPayment, 409, 'conflict', { message: new RegExp(`is row 1 of bank import ${up.importId} and cannot be removed`) });
    const handPayment = (await ok(t, api, 'GET', `/v1/invoices/${w.inv1043.id}`)).payments[0].id as string;
    const heldByHand = await api.request('DELETE', `/v1/invoices/${w.inv1043.id}/payments/${handPayment}`);
    expectError(t, heldByHand, 409, 'conflict', { message: new RegExp(`is row 8 of bank import ${up.importId} and cannot be removed`) });
    t.same(await trialBalance(api), matched, 'the refusals changed nothing');

    const undone = await ok(t, api, 'POST', `/v1/bank-imports/${up.importId}/undo`, undefined, 200);
    // 5 lines + 2 payments removed; the entry by hand stays.
    t.equal(undone.transactionsRemoved, 7);
    t.same(await trialBalance(api), before, 'undo puts the books back, the entry by hand kept');
    t.match(await ok(t, api, 'GET', `/v1/invoices/${w.inv1042.id}`), { amountDue: 120_000, status: 'overdue' }, 'INV-1042 owed again (due 21 March 2024)');
    t.match(await ok(t, api, 'GET', `/v1/bills/${w.bill}`), { amountDue: 85_000 }, 'the rent owed again');
    t.match(await ok(t, api, 'GET', `/v1/transactions/${w.handTxn}`), { sourceType: 'payment' }, 'the entry by hand is still there');
    // Undone, the statement holds the payment by hand no more: it may go. 1200 −2,400.00, 1100 +2,400.00.
    await ok(t, api, 'DELETE', `/v1/invoices/${w.inv1043.id}/payments/${handPayment}`, undefined, 200);
    t.match(Object.fromEntries((await trialBalance(api)).map(([code, debit, credit]) => [code, debit - credit])), { '1100': 360_000, '1200': 100_000 });
  },
);

t.test('lines waiting on suspense: the inbox suggests, POST /transactions/{id}/match pays or ties each; refusals write nothing', async (t) => {
  const w = await world(t);
  const { api } = w;
  const up = await ok(t, api, 'POST', '/v1/bank-imports/upload', { file: starling, filename: 'starling.csv' });
  await ok(t, api, 'POST', `/v1/bank-imports/${up.importId}/confirm`, {}, 200);
  const rows = (await ok(t, api, 'GET', `/v1/bank-imports/${up.importId}`)).rows as Row[];
  const line = (n: number) => rows[n - 1]!.transactionId!;
  /**
   * Without matching: all eight rows posted; 1200 = 3,400.00 + 1,500.39 = 4,900.39 (the 2,400.00 twice);
   * suspense holds the other side of seven: −1,200.00 + 850.00 + 13.05 + 2.00 − 2,400.00 = a credit of 2,734.95.
   */
  const unmatched = await trialBalance(api);
  t.same(
    unmatched.find((b) => b[0] === '1200'),
    ['1200', 490_039, 0],
    'the 2,400.00 counted twice',
  );
  t.same(
    unmatched.find((b) => b[0] === '9999'),
    ['9999', 0, 273_495],
  );

  const inbox = (await ok(t, api, 'GET', '/v1/bank/inbox')) as { transactionId: string; suggestedMatch: Row['suggestedMatch'] }[];
  const suggestionOf = (id: string) => inbox.find((s) => s.transactionId === id)?.suggestedMatch ?? null;
  t.match(suggestionOf(line(1)), { kind: 'invoice', id: w.inv1042.id, number: 'INV-1042', description: 'Invoice INV-1042 to Acme Widgets Ltd' });
  t.match(suggestionOf(line(2)), { kind: 'bill', id: w.bill, number: 'RENT-03', description: 'Bill RENT-03 from Smith, Jones & Co' });
  t.match(suggestionOf(line(8)), { kind: 'transaction', id: w.handTxn });
  t.equal(suggestionOf(line(3)), null, 'nothing for a coffee');

  // Refusals, each leaving the books as they are.
  // A 400 names the field in the envelope; a 422 or 409 names it at the head of its message.
  const refused: [string, Record<string, string>, number, string, { field?: string; message?: RegExp }][] = [
    [
      line(3),
      { invoiceId: w.inv1042.id },
      422,
      'unprocessable_entity',
      { message: /^invoiceId: the line is £4.35 out of the bank, which cannot pay an invoice/ },
    ],
    [line(8), { invoiceId: w.inv1042.id }, 422, 'unprocessable_entity', { message: /^invoiceId: payment of £2,400.00 is more than the £1,200.00 due/ }],
    [
      line(1),
      { transactionId: w.handTxn },
      422,
      'unprocessable_entity',
      { message: /^transactionId: entry \S+ moves £2,400.00 through the bank account, the line £1,200.00/ },
    ],
    [line(1), { invoiceId: w.inv1042.id, billId: w.bill }, 400, 'validation_error', { field: 'billId' }],
    [line(4), { billId: w.bill }, 422, 'unprocessable_entity', { message: /has no line on the suspense account 9999: it is categorised already/ }], // HMRC's line went to 2202
    [line(1), { invoiceId: w.inv1043.id }, 409, 'already_paid', { message: /^invoiceId: invoice INV-1043 is already paid/ }],
  ];
  for (const [txn, body, status, code, expected] of refused) {
    const r = await api.request('POST', `/v1/transactions/${txn}/match`, { body });
    expectError(t, r, status, code, expected);
  }
  t.same(await trialBalance(api), unmatched, 'the refusals wrote nothing');

  // A reconciled line stays reconciled as the invoice's payment.
  await ok(t, api, 'PATCH', `/v1/transactions/${line(1)}/reconcile`, { reconciled: true }, 200);
  const paid = await ok(t, api, 'POST', `/v1/transactions/${line(1)}/match`, { invoiceId: w.inv1042.id }, 200);
  t.match(paid, { removedTransactionId: line(1), amount: 120_000, date: '2024-03-02', matchedTo: { kind: 'invoice', id: w.inv1042.id, number: 'INV-1042' } });
  t.match(await ok(t, api, 'GET', `/v1/transactions/${paid.transactionId}`), { sourceType: 'payment', isReconciled: true });
  t.equal((await api.request('GET', `/v1/transactions/${line(1)}`)).status, 404, 'the suspense entry is gone');
  await ok(t, api, 'POST', `/v1/transactions/${line(2)}/match`, { billId: w.bill }, 200);
  const tied = await ok(t, api, 'POST', `/v1/transactions/${line(8)}/match`, { transactionId: w.handTxn }, 200);
  t.match(tied, { transactionId: w.handTxn, paymentId: null, matchedTo: { kind: 'transaction', id: w.handTxn } });
  // The entry by hand is on a statement now: a second line cannot take it.
  const twice = await api.request('POST', `/v1/transactions/${line(7)}/match`, { body: { transactionId: w.handTxn } });
  expectError(t, twice, 409, 'conflict', { message: /^transactionId: entry txn_\w+ is row 8 of bank import bimp_\w+ already/ });

  t.same(await trialBalance(api), matched, 'the same books as matching at confirm');
  const after = (await ok(t, api, 'GET', `/v1/bank-imports/${up.importId}`)).rows as Row[];
  t.same(
    [after[0], after[1], after[7]].map((r) => [r!.status, r!.matchedTo?.kind, r!.transactionId]),
    [
      ['created', 'invoice', paid.transactionId],
      ['created', 'bill', after[1]!.transactionId],
      ['matched', 'transaction', w.handTxn],
    ],
    'the statement rows point at the payments and the entry',
  );
});

t.test('an entry a statement row holds cannot go back to draft (409), so its money cannot be edited off the bank account', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-30T10:00:00Z' });
  const api = await serveBooks(t, books);
  const accounts = (await ok(t, api, 'GET', '/v1/accounts?flat=true')).accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  // £45.17 of office costs paid from the bank, entered by hand: Dr 5100 45.17, Cr 1200 45.17.
  const entry = (
    await ok(t, api, 'POST', '/v1/transactions', {
      date: '2026-11-28',
      description: 'Manual for match',
      lines: [
        { accountId: id('5100'), amount: 4_517 },
        { accountId: id('1200'), amount: -4_517 },
      ],
    })
  ).id as string;
  const up = await ok(t, api, 'POST', '/v1/bank-imports/upload', { file: 'Date,Description,Amount\n29/11/2026,ZZQ MATCH ME,-45.17\n', filename: 's.csv' });
  await ok(t, api, 'POST', `/v1/bank-imports/${up.importId}/confirm`, {}, 200);
  const line = ((await ok(t, api, 'GET', `/v1/bank-imports/${up.importId}`)).rows as Row[])[0]!.transactionId!;
  await ok(t, api, 'POST', `/v1/transactions/${line}/match`, { transactionId: entry }, 200);
  const balances = async () =>
    Object.fromEntries(
      await Promise.all(
        ['1200', '1210', '5100', '9999'].map(async (code) => [code, (await ok(t, api, 'GET', `/v1/accounts/${id(code)}/balance`)).balance.net]),
      ),
    );
  // The line's own entry went as a duplicate of the one by hand: 1200 holds only its −45.17, 5100 its +45.17, suspense nothing.
  const held = { '1200': -4_517, '1210': 0, '5100': 4_517, '9999': 0 };
  t.same(await balances(), held);
  const before = await ok(t, api, 'GET', `/v1/transactions/${entry}`);

  const revert = await api.request('PATCH', `/v1/transactions/${entry}/status`, { body: { status: 'draft' } });
  expectError(t, revert, 409, 'conflict', {
    message: new RegExp(
      `^transaction ${entry} is row 1 of bank import ${up.importId} and cannot be reverted to draft: the statement's money would leave the books`,
    ),
  });
  // Still posted, so its lines cannot be moved off 1200 (to 1210, say) either.
  const moved = await api.request('PUT', `/v1/transactions/${entry}`, {
    body: {
      lines: [
        { accountId: id('5100'), amount: 4_517 },
        { accountId: id('1210'), amount: -4_517 },
      ],
    },
  });
  expectError(t, moved, 422, 'unprocessable_entity');
  t.same(await ok(t, api, 'GET', `/v1/transactions/${entry}`), before, 'the entry is as it was, posted');
  t.same(await balances(), held, 'the statement’s −45.17 is still on 1200');
  const rows = (await ok(t, api, 'GET', `/v1/bank-imports/${up.importId}`)).rows as Row[];
  t.same(
    rows.map((r) => [r.status, r.transactionId]),
    [['matched', entry]],
    'the row still holds the entry',
  );

  // Undone, the statement lets go of the entry (kept, it was not the import's): it may go back to draft, out of the balances.
  await ok(t, api, 'POST', `/v1/bank-imports/${up.importId}/undo`, undefined, 200);
  t.match(await ok(t, api, 'PATCH', `/v1/transactions/${entry}/status`, { status: 'draft' }), { id: entry, status: 'draft' });
  t.same(await balances(), { '1200': 0, '1210': 0, '5100': 0, '9999': 0 });
});
