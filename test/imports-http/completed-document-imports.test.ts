/**
 * A completed invoice or bill import read back (GET, acct bill-imports get)
 * shows its clearing proof as it stood when it was confirmed (cleared, net
 * 0.00) and its rows as created, not the file previewed again against books
 * that now hold its documents (every row a duplicate, the proof 3,000.00
 * off). A voided one shows the same proof and its rows voided. Hand-made
 * files; every figure worked in a comment.
 */
import t, { type Test } from 'tap';
import { runCliInProcessJson } from '../helpers/index.js';
import { trialBalanceAt, world } from './support.js';

const directions = [
  {
    path: 'invoice-imports',
    clearing: '1198',
    // Debtors £3,000.00 on 1198 (clearing); balanced by Sales £3,000.00.
    tb: 'Account,Debit,Credit\nAccounts Receivable,"3,000.00",\nSales,,"3,000.00"\n',
    header: 'Contact,Invoice Number,Date,Due Date,Total,Amount Paid',
    // 1198 holds +3,000.00 (a debit); the invoices move it −3,000.00.
    proof: { account: '1198', openingBalance: '3000.00', importDelta: '-3000.00', netBalance: '0.00', cleared: true },
  },
  {
    path: 'bill-imports',
    clearing: '2198',
    // Creditors £3,000.00 on 2198 (clearing); balanced by Cost of Sales £3,000.00.
    tb: 'Account,Debit,Credit\nAccounts Payable,,"3,000.00"\nCost of Sales,"3,000.00",\n',
    header: 'Supplier,Bill Number,Date,Due Date,Total,Amount Paid',
    // 2198 holds −3,000.00 (a credit); the bills move it +3,000.00.
    proof: { account: '2198', openingBalance: '-3000.00', importDelta: '3000.00', netBalance: '0.00', cleared: true },
  },
] as const;

// B-100 £1,800.00 unpaid + B-101 £1,500.00 with £300.00 paid: outstanding 1,800.00 + 1,200.00 = 3,000.00, the clearing balance.
const rowsOf = (header: string) =>
  [header, 'Harbour Timber Ltd,B-100,10/03/2025,09/04/2025,"1,800.00",0.00', 'Kestrel Fixings,B-101,12/03/2025,11/04/2025,"1,500.00",300.00'].join('\n');

async function confirmed(t: Test, d: (typeof directions)[number]) {
  const w = await world(t);
  const ob = await w.api.request('POST', '/v1/opening-balances/upload', { body: { file: d.tb, clearingMode: 'clearing', cutoverDate: '2025-03-31' } });
  t.equal((await w.api.request('POST', `/v1/opening-balances/${ob.body.data.importId}/confirm`)).status, 200);
  const up = await w.api.request('POST', `/v1/${d.path}/upload`, { body: { file: rowsOf(d.header) } });
  t.equal(up.status, 201, JSON.stringify(up.body.error ?? ''));
  t.same(up.body.data.clearingProof, d.proof, 'the proof at upload');
  t.same(
    up.body.data.rows.map((r: { status: string }) => r.status),
    ['ready', 'ready'],
  );
  const done = await w.api.request('POST', `/v1/${d.path}/${up.body.data.importId}/confirm`);
  t.equal(done.status, 200, JSON.stringify(done.body.error ?? ''));
  t.match(done.body.data, { documentsCreated: 2, syntheticPaymentsCreated: 1, clearingBalance: '0.00' });
  t.equal((await trialBalanceAt(w.api, '2025-03-31'))[d.clearing] ?? 0, 0, `${d.clearing} cleared`);
  return { ...w, importId: up.body.data.importId as string };
}

const rowView = (r: { docNumber: string; status: string; error: string | null; outstanding: string }) => [r.docNumber, r.status, r.error, r.outstanding];

for (const d of directions) {
  t.test(`a completed ${d.path.replace('-imports', '')} import reads back as confirmed: the proof cleared, its rows created`, async (t) => {
    const { api, books, importId } = await confirmed(t, d);
    const got = await api.request('GET', `/v1/${d.path}/${importId}`);
    t.equal(got.status, 200);
    t.equal(got.body.data.status, 'completed');
    t.same(got.body.data.clearingProof, d.proof, 'the proof as it stood at confirm, net 0.00');
    t.same(got.body.data.rows.map(rowView), [
      ['B-100', 'created', null, '1800.00'],
      // 1,500.00 − 300.00 = 1,200.00
      ['B-101', 'created', null, '1200.00'],
    ]);
    t.same(got.body.data.blockers, ['the import is completed']);
    if (d.path === 'bill-imports') {
      const cli = await runCliInProcessJson(['--data', books.dataDir, '--org', books.organisationId, '--json', 'bill-imports', 'get', importId]);
      t.equal(cli.status, 0, cli.stderr);
      const data = cli.data as { clearingProof: unknown; rows: Parameters<typeof rowView>[0][] };
      t.same(data.clearingProof, d.proof, 'acct bill-imports get shows the same');
      t.same(
        data.rows.map((r) => r.status),
        ['created', 'created'],
      );
    }

    const voided = await api.request('POST', `/v1/${d.path}/${importId}/void`);
    t.equal(voided.status, 200, JSON.stringify(voided.body.error ?? ''));
    const after = await api.request('GET', `/v1/${d.path}/${importId}`);
    t.equal(after.body.data.status, 'voided');
    t.same(after.body.data.clearingProof, d.proof, 'a voided import keeps the proof it was confirmed on');
    t.same(after.body.data.rows.map(rowView), [
      ['B-100', 'voided', null, '1800.00'],
      ['B-101', 'voided', null, '1200.00'],
    ]);
    t.same(after.body.data.blockers, ['the import is voided']);
  });
}
