/**
 * Aged debtors and aged creditors over HTTP (GET /v1/reports/aged-debtors,
 * /v1/reports/aged-creditors). The clock stands at 2026-11-21; every
 * daysOverdue, bucket and total is worked out by hand in the comments.
 * Zero-rated items keep an invoice's total equal to its unit price.
 */
import t, { type Test } from 'tap';
import type { Api } from '../helpers/index.js';
import { contactOk, createKey, expectError, ledger } from '../ledger-http/support.js';
import { invoiceOk, item, payOk, sendOk } from '../sales-http/invoice-support.js';
import { approveOk, billOk, payBillOk, supplierOk } from '../sales-http/purchases-support.js';

const clock = '2026-11-21T10:00:00Z';

const aged = async (t: Test, api: Api, report: 'aged-debtors' | 'aged-creditors', query = '') => {
  const r = await api.request('GET', `/v1/reports/${report}${query}`);
  t.equal(r.status, 200, `${report}${query}: ${JSON.stringify(r.body?.error ?? '')}`);
  return r.body.data;
};

/** A sent sales invoice of one zero-rated line of `amount` pence; its id and number. */
async function sentInvoice(t: Test, api: Api, contactId: string, amount: number, issueDate: string, dueDate: string) {
  const inv = await invoiceOk(t, api, contactId, { issueDate, dueDate, items: [item({ unitPrice: amount, vatRate: 'zero' })] });
  await sendOk(t, api, inv.id);
  return { id: inv.id as string, invoiceNumber: inv.invoiceNumber as string };
}

/** An aged row as the spec lists it, with nothing paid. */
const unpaid = (
  doc: { id: string; invoiceNumber: string | null },
  issueDate: string,
  dueDate: string,
  total: number,
  daysOverdue: number,
  agingBucket: string,
) => ({
  id: doc.id,
  type: 'invoice',
  invoiceNumber: doc.invoiceNumber,
  issueDate,
  dueDate,
  total,
  amountPaid: 0,
  amountCredited: 0,
  outstanding: total,
  daysOverdue,
  agingBucket,
});

t.test('bucket boundaries: 0, 1, 30, 31, 60, 61, 90, 91 days overdue and a due date to come', async (t) => {
  const { api } = await ledger(t, { clock });
  // Beta first: contacts are listed by name, not by when they were made.
  const beta = await contactOk(t, api, { name: 'Beta Services Ltd' });
  const alpha = await contactOk(t, api, { name: 'Alpha Trading Ltd' });
  const issued = '2026-08-01';
  // daysOverdue = 2026-11-21 − dueDate:
  const b91 = await sentInvoice(t, api, beta, 4_000, issued, '2026-08-22'); // 9 (Aug) + 30 (Sep) + 31 (Oct) + 21 (Nov) = 91: 90+
  const b61 = await sentInvoice(t, api, beta, 3_000, issued, '2026-09-21'); // 9 + 31 + 21 = 61: 61-90
  const b31 = await sentInvoice(t, api, beta, 2_000, issued, '2026-10-21'); // 10 + 21 = 31: 31-60
  const b1 = await sentInvoice(t, api, beta, 1_000, issued, '2026-11-20'); // 1: 1-30
  // Alpha's made out of due-date order: rows come by due date.
  const aFuture = await sentInvoice(t, api, alpha, 5_000, issued, '2026-12-21'); // −30: current, shown as 0
  const a0 = await sentInvoice(t, api, alpha, 10_000, issued, '2026-11-21'); // 0: current
  const a90 = await sentInvoice(t, api, alpha, 40_000, issued, '2026-08-23'); // 8 + 30 + 31 + 21 = 90: 61-90
  const a30 = await sentInvoice(t, api, alpha, 20_000, issued, '2026-10-22'); // 9 + 21 = 30: 1-30
  const a60 = await sentInvoice(t, api, alpha, 30_000, issued, '2026-09-22'); // 8 + 31 + 21 = 60: 31-60

  const data = await aged(t, api, 'aged-debtors', '?asOfDate=2026-11-21');
  t.strictSame(data, {
    reportDate: '2026-11-21',
    reportTitle: 'Aged Debtors',
    contacts: [
      {
        contactId: alpha,
        contactName: 'Alpha Trading Ltd',
        invoices: [
          unpaid(a90, issued, '2026-08-23', 40_000, 90, '61-90'),
          unpaid(a60, issued, '2026-09-22', 30_000, 60, '31-60'),
          unpaid(a30, issued, '2026-10-22', 20_000, 30, '1-30'),
          unpaid(a0, issued, '2026-11-21', 10_000, 0, 'current'),
          unpaid(aFuture, issued, '2026-12-21', 5_000, 0, 'current'),
        ],
        // current 10,000 + 5,000; then one invoice a bucket; 90+ none.
        current: 15_000,
        days1to30: 20_000,
        days31to60: 30_000,
        days61to90: 40_000,
        days90plus: 0,
        total: 105_000,
      },
      {
        contactId: beta,
        contactName: 'Beta Services Ltd',
        invoices: [
          unpaid(b91, issued, '2026-08-22', 4_000, 91, '90+'),
          unpaid(b61, issued, '2026-09-21', 3_000, 61, '61-90'),
          unpaid(b31, issued, '2026-10-21', 2_000, 31, '31-60'),
          unpaid(b1, issued, '2026-11-20', 1_000, 1, '1-30'),
        ],
        current: 0,
        days1to30: 1_000,
        days31to60: 2_000,
        days61to90: 3_000,
        days90plus: 4_000,
        total: 10_000,
      },
    ],
    // Alpha + Beta by bucket: 15,000 + 0; 20,000 + 1,000; 30,000 + 2,000; 40,000 + 3,000; 0 + 4,000; 105,000 + 10,000.
    totals: { current: 15_000, days1to30: 21_000, days31to60: 32_000, days61to90: 43_000, days90plus: 4_000, total: 115_000 },
    summary: { totalContacts: 2, totalInvoices: 9 },
  });

  // A day later every overdue invoice moves on by one: 0 → 1, 30 → 31, 60 → 61, 90 → 91 cross a boundary.
  const next = await aged(t, api, 'aged-debtors', '?asOfDate=2026-11-22');
  const days = (d: typeof data) =>
    d.contacts.flatMap((c: { invoices: { invoiceNumber: string; daysOverdue: number; agingBucket: string }[] }) =>
      c.invoices.map((i) => [i.invoiceNumber, i.daysOverdue, i.agingBucket]),
    );
  t.strictSame(days(next), [
    [a90.invoiceNumber, 91, '90+'],
    [a60.invoiceNumber, 61, '61-90'],
    [a30.invoiceNumber, 31, '31-60'],
    [a0.invoiceNumber, 1, '1-30'],
    [aFuture.invoiceNumber, 0, 'current'],
    [b91.invoiceNumber, 92, '90+'],
    [b61.invoiceNumber, 62, '61-90'],
    [b31.invoiceNumber, 32, '31-60'],
    [b1.invoiceNumber, 2, '1-30'],
  ]);
  // Alpha 5,000 current, 10,000 1-30, 20,000 31-60, 30,000 61-90, 40,000 90+; Beta's buckets are unchanged.
  t.strictSame(next.totals, { current: 5_000, days1to30: 11_000, days31to60: 22_000, days61to90: 33_000, days90plus: 44_000, total: 115_000 });
});

t.test('what was paid by the date is deducted; paid, void, draft and later documents are left out', async (t) => {
  const { api } = await ledger(t, { clock });
  const gamma = await contactOk(t, api, { name: 'Gamma Ltd' });
  const std = { issueDate: '2026-10-01', dueDate: '2026-10-31' }; // 1 × £100.00 at 20%: total 12,000
  // Part paid: 5,000 on 2026-10-15, so 7,000 outstanding at both dates.
  const part = await invoiceOk(t, api, gamma, std);
  await sendOk(t, api, part.id);
  await payOk(t, api, part.id, { amount: 5_000, date: '2026-10-15' });
  // Paid in full on 2026-10-20: absent at both dates.
  const paid = await invoiceOk(t, api, gamma, std);
  await sendOk(t, api, paid.id);
  await payOk(t, api, paid.id, { amount: 12_000, date: '2026-10-20' });
  // Sent and voided; and a draft (due long ago): never shown.
  const voided = await invoiceOk(t, api, gamma, std);
  await sendOk(t, api, voided.id);
  t.equal((await api.request('POST', `/v1/invoices/${voided.id}/void`)).status, 200, 'voided');
  await invoiceOk(t, api, gamma, { issueDate: '2026-06-01', dueDate: '2026-06-30' });
  // Part paid after 2026-11-10: 4,000 on 2026-11-15.
  const later = await invoiceOk(t, api, gamma, std);
  await sendOk(t, api, later.id);
  await payOk(t, api, later.id, { amount: 4_000, date: '2026-11-15' });
  // Paid in full after 2026-11-10: on 2026-11-18.
  const cleared = await invoiceOk(t, api, gamma, std);
  await sendOk(t, api, cleared.id);
  await payOk(t, api, cleared.id, { amount: 12_000, date: '2026-11-18' });
  // Issued after 2026-11-10.
  const fresh = await invoiceOk(t, api, gamma, { issueDate: '2026-11-15', dueDate: '2026-12-15' });
  await sendOk(t, api, fresh.id);

  const row = (
    inv: { id: string; invoiceNumber: string },
    issueDate: string,
    dueDate: string,
    amountPaid: number,
    daysOverdue: number,
    agingBucket: string,
  ) => ({
    id: inv.id,
    type: 'invoice',
    invoiceNumber: inv.invoiceNumber,
    issueDate,
    dueDate,
    total: 12_000,
    amountPaid,
    amountCredited: 0,
    outstanding: 12_000 - amountPaid,
    daysOverdue,
    agingBucket,
  });

  // At 2026-11-10: 10 days past 2026-10-31. The later payments are not yet made; `fresh` is not yet issued.
  const before = await aged(t, api, 'aged-debtors', '?asOfDate=2026-11-10');
  t.strictSame(before.contacts, [
    {
      contactId: gamma,
      contactName: 'Gamma Ltd',
      invoices: [
        row(part, '2026-10-01', '2026-10-31', 5_000, 10, '1-30'),
        row(later, '2026-10-01', '2026-10-31', 0, 10, '1-30'),
        row(cleared, '2026-10-01', '2026-10-31', 0, 10, '1-30'),
      ],
      current: 0,
      days1to30: 31_000, // 7,000 + 12,000 + 12,000
      days31to60: 0,
      days61to90: 0,
      days90plus: 0,
      total: 31_000,
    },
  ]);
  t.strictSame(before.summary, { totalContacts: 1, totalInvoices: 3 });

  // At 2026-11-21: 21 days past due; `later` has 4,000 paid, `cleared` is gone, `fresh` is current.
  const after = await aged(t, api, 'aged-debtors', '?asOfDate=2026-11-21');
  t.strictSame(after.contacts, [
    {
      contactId: gamma,
      contactName: 'Gamma Ltd',
      invoices: [
        row(part, '2026-10-01', '2026-10-31', 5_000, 21, '1-30'),
        row(later, '2026-10-01', '2026-10-31', 4_000, 21, '1-30'),
        row(fresh, '2026-11-15', '2026-12-15', 0, 0, 'current'),
      ],
      current: 12_000,
      days1to30: 15_000, // 7,000 + 8,000
      days31to60: 0,
      days61to90: 0,
      days90plus: 0,
      total: 27_000,
    },
  ]);
  t.strictSame(after.totals, { current: 12_000, days1to30: 15_000, days31to60: 0, days61to90: 0, days90plus: 0, total: 27_000 });
  t.strictSame(after.summary, { totalContacts: 1, totalInvoices: 3 });

  // Before anything was issued: an empty report, not an error.
  t.strictSame(await aged(t, api, 'aged-debtors', '?asOfDate=2026-09-30'), {
    reportDate: '2026-09-30',
    reportTitle: 'Aged Debtors',
    contacts: [],
    totals: { current: 0, days1to30: 0, days31to60: 0, days61to90: 0, days90plus: 0, total: 0 },
    summary: { totalContacts: 0, totalInvoices: 0 },
  });
});

t.test('asOfDate defaults to today; a bad date is a 400 naming asOfDate; reports:read is needed', async (t) => {
  const { api } = await ledger(t, { clock });
  const c = await contactOk(t, api);
  await sentInvoice(t, api, c, 1_000, '2026-11-01', '2026-11-11'); // 10 days overdue today
  const today = await aged(t, api, 'aged-debtors');
  t.equal(today.reportDate, '2026-11-21');
  t.strictSame(today, await aged(t, api, 'aged-debtors', '?asOfDate=2026-11-21'), 'the same as asking for today');
  t.equal(today.contacts[0].invoices[0].daysOverdue, 10);
  t.equal((await aged(t, api, 'aged-creditors')).reportDate, '2026-11-21');

  for (const report of ['aged-debtors', 'aged-creditors']) {
    for (const bad of ['bad', '2026-02-30', '2026-11-21T00:00:00Z', '21/11/2026']) {
      t.test(`${report} asOfDate=${bad}`, async (t) => {
        expectError(t, await api.request('GET', `/v1/reports/${report}?asOfDate=${encodeURIComponent(bad)}`), 400, 'validation_error', { field: 'asOfDate' });
      });
    }
  }

  const { key } = await createKey(t, api, { name: 'no reports', scopes: ['invoices:read', 'contacts:read'] });
  for (const report of ['aged-debtors', 'aged-creditors']) {
    expectError(t, await api.request('GET', `/v1/reports/${report}`, { key }), 403, 'insufficient_scope', { message: /reports:read/ });
  }
  const { key: reader } = await createKey(t, api, { name: 'reports', scopes: ['reports:read'] });
  t.equal((await api.request('GET', '/v1/reports/aged-debtors', { key: reader })).status, 200, 'reports:read alone is enough');
});

t.test('aged creditors: approved bills only, with the same structure; invoices and bills never mix', async (t) => {
  const { api } = await ledger(t, { clock });
  const paper = await supplierOk(t, api, { name: 'Paper Supplies Ltd' });
  const ink = await supplierOk(t, api, { name: 'Ink Co' });
  const customer = await contactOk(t, api, { name: 'Client One Ltd' });
  const both = await contactOk(t, api, { contactType: 'both', name: 'Both Ways Ltd' });

  const bill = async (contactId: string, billNumber: string | undefined, amount: number, issueDate: string, dueDate: string, approve = true) => {
    const b = await billOk(t, api, contactId, {
      ...(billNumber === undefined ? {} : { billNumber }),
      issueDate,
      dueDate,
      items: [item({ description: 'Supplies', unitPrice: amount, vatRate: 'zero' })],
    });
    if (approve) await approveOk(t, api, b.id);
    return { id: b.id as string, invoiceNumber: billNumber ?? null };
  };
  // Paper: due 2026-11-01, 21 − 1 = 20 days overdue: 1-30; part paid 2,500 of 10,000.
  const p1 = await bill(paper, 'PS-100', 10_000, '2026-10-01', '2026-11-01');
  await payBillOk(t, api, p1.id, { amount: 2_500, date: '2026-11-05' });
  // Paper: due 2026-08-01, 30 (rest of Aug) + 30 (Sep) + 31 (Oct) + 21 (Nov) = 112 days: 90+; no supplier number.
  const p2 = await bill(paper, undefined, 7_000, '2026-07-01', '2026-08-01');
  // Paper: a draft, and a paid bill: left out.
  await bill(paper, 'PS-DRAFT', 9_999, '2026-07-01', '2026-08-01', false);
  const p3 = await bill(paper, 'PS-PAID', 3_000, '2026-10-01', '2026-10-15');
  await payBillOk(t, api, p3.id, { amount: 3_000, date: '2026-10-20' });
  // Ink: due 2026-12-01, not yet due: current.
  const i1 = await bill(ink, 'INK-7', 6_000, '2026-11-01', '2026-12-01');
  // Both Ways: a bill due 2026-10-06 (25 + 21 = 46 days: 31-60) and an invoice, which is a debtor's.
  const w1 = await bill(both, 'BW-1', 8_000, '2026-09-06', '2026-10-06');
  const sold = await sentInvoice(t, api, both, 11_000, '2026-11-01', '2026-11-11');
  const soldOnly = await sentInvoice(t, api, customer, 1_200, '2026-11-01', '2026-11-30');

  // The sweep marks the past-due bills and the Both Ways invoice overdue: they are still owed.
  const swept = await api.request('POST', '/v1/invoices/sweep');
  t.equal(swept.status, 200, 'swept');
  t.equal(swept.body.data.overdueBills.length, 3, 'p1, p2 and w1 are overdue');

  const creditors = await aged(t, api, 'aged-creditors', '?asOfDate=2026-11-21');
  t.strictSame(creditors, {
    reportDate: '2026-11-21',
    reportTitle: 'Aged Creditors',
    contacts: [
      {
        contactId: both,
        contactName: 'Both Ways Ltd',
        invoices: [unpaid(w1, '2026-09-06', '2026-10-06', 8_000, 46, '31-60')],
        current: 0,
        days1to30: 0,
        days31to60: 8_000,
        days61to90: 0,
        days90plus: 0,
        total: 8_000,
      },
      {
        contactId: ink,
        contactName: 'Ink Co',
        invoices: [unpaid(i1, '2026-11-01', '2026-12-01', 6_000, 0, 'current')],
        current: 6_000,
        days1to30: 0,
        days31to60: 0,
        days61to90: 0,
        days90plus: 0,
        total: 6_000,
      },
      {
        contactId: paper,
        contactName: 'Paper Supplies Ltd',
        invoices: [
          unpaid(p2, '2026-07-01', '2026-08-01', 7_000, 112, '90+'),
          { ...unpaid(p1, '2026-10-01', '2026-11-01', 10_000, 20, '1-30'), amountPaid: 2_500, outstanding: 7_500 },
        ],
        current: 0,
        days1to30: 7_500,
        days31to60: 0,
        days61to90: 0,
        days90plus: 7_000,
        total: 14_500,
      },
    ],
    totals: { current: 6_000, days1to30: 7_500, days31to60: 8_000, days61to90: 0, days90plus: 7_000, total: 28_500 },
    summary: { totalContacts: 3, totalInvoices: 4 },
  });

  // Debtors hold the two invoices and none of the bills: Both Ways 10 days overdue, Client One not yet due.
  const debtors = await aged(t, api, 'aged-debtors', '?asOfDate=2026-11-21');
  t.strictSame(
    debtors.contacts.map((c: { contactName: string; invoices: { id: string }[]; total: number }) => [c.contactName, c.invoices.map((i) => i.id), c.total]),
    [
      ['Both Ways Ltd', [sold.id], 11_000],
      ['Client One Ltd', [soldOnly.id], 1_200],
    ],
  );
  t.strictSame(debtors.totals, { current: 1_200, days1to30: 11_000, days31to60: 0, days61to90: 0, days90plus: 0, total: 12_200 });
  t.strictSame(debtors.summary, { totalContacts: 2, totalInvoices: 2 });

  // The bill payment made 2026-11-05 is not yet deducted at 2026-11-04 (3 days overdue then).
  const earlier = await aged(t, api, 'aged-creditors', '?asOfDate=2026-11-04');
  const paperThen = earlier.contacts.find((c: { contactId: string }) => c.contactId === paper);
  t.strictSame(paperThen.invoices[1], unpaid(p1, '2026-10-01', '2026-11-01', 10_000, 3, '1-30'));
});

t.test('the same request twice gives byte-identical bodies', async (t) => {
  const { books, api } = await ledger(t, { clock });
  const a = await contactOk(t, api, { name: 'Same Name Ltd' });
  const b = await contactOk(t, api, { name: 'Same Name Ltd', email: 'other@example.test' });
  for (const [c, due] of [
    [a, '2026-10-01'],
    [b, '2026-10-01'],
    [a, '2026-11-01'],
    [b, '2026-09-01'],
  ] as const) {
    await sentInvoice(t, api, c, 1_000, '2026-08-01', due);
  }
  const s = await supplierOk(t, api);
  const bill = await billOk(t, api, s, { issueDate: '2026-08-01', dueDate: '2026-09-01' });
  await approveOk(t, api, bill.id);
  const raw = async (path: string) => {
    const res = await api.request('GET', path, { key: books.apiKey });
    t.equal(res.status, 200, path);
    return res.text;
  };
  for (const path of ['/v1/reports/aged-debtors?asOfDate=2026-11-21', '/v1/reports/aged-creditors?asOfDate=2026-11-21', '/v1/reports/aged-debtors']) {
    const first = await raw(path);
    t.equal(await raw(path), first, path);
  }
  const body = JSON.parse(await raw('/v1/reports/aged-debtors')).data;
  t.equal(body.summary.totalContacts, 2, 'two contacts of the same name are two entries');
  t.equal(body.summary.totalInvoices, 4);
});
