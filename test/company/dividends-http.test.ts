/**
 * Directors, board minutes and dividends over HTTP: the profit check
 * before and after each step of a dividend's life (declare, pay, void),
 * the trial balance balanced at every step, insufficient_profit, voiding
 * twice refused, set against the loan account, and a sole trader refused.
 * Figures worked by hand.
 */
import t from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';
import { pdfText } from '../sales-cli/support.js';
import { straightText } from '../company-pdf/support.js';

const fye = '2026-03-31';

async function company(t: Parameters<typeof newBooks>[0]) {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  // £10,000.00 of sales and £2,500.00 of rent in the year to 31 March 2026: profit £7,500.00.
  for (const [date, lines] of [
    [
      '2025-06-01',
      [
        ['1200', 1_000_000],
        ['4000', -1_000_000],
      ],
    ],
    [
      '2025-09-01',
      [
        ['5200', 250_000],
        ['1200', -250_000],
      ],
    ],
  ] as const) {
    const r = await api.request('POST', '/v1/transactions', {
      body: { date, description: `Entry ${date}`, lines: lines.map(([code, amount]) => ({ accountId: id(code), amount })) },
    });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  }
  const director = async (body: Record<string, unknown>) => {
    const r = await api.request('POST', '/v1/directors', { body });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
    return r.body.data.id as string;
  };
  const jo = await director({ fullName: 'Jo Bloggs', sharesHeld: 60, appointedDate: '2020-01-06' });
  const sam = await director({ fullName: 'Sam Bloggs', sharesHeld: 40 });
  return { api, id, jo, sam };
}

async function check(api: Api) {
  return (await api.request('GET', `/v1/dividends/profit-check?financialYearEnd=${fye}`)).body.data;
}

async function balanced(t: Parameters<typeof newBooks>[0], api: Api, step: string) {
  const tb = (await api.request('GET', '/v1/reports/trial-balance?asOf=2026-12-31')).body.data;
  t.ok(tb.balanced, `${step}: the trial balance balances (${tb.totals.debit} = ${tb.totals.credit})`);
  return tb;
}

t.test('declare, pay and void: the profit check and the trial balance at every step', async (t) => {
  const { api, jo, sam } = await company(t);
  t.same(await check(api), {
    financialYearEnd: fye,
    retainedEarningsPence: 750_000,
    previouslyDeclaredPence: 0,
    availableProfitPence: 750_000,
    canDeclareDividend: true,
  });

  const tooMuch = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo, sam], date: '2026-05-01', financialYearEnd: fye, totalDividendPence: 750_001 },
  });
  t.equal(tooMuch.status, 422);
  t.equal(tooMuch.body.error.code, 'insufficient_profit');

  // £5,000.00 resolved: £3,000.00 to Jo (60 shares), £2,000.00 to Sam (40 shares).
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo, sam], date: '2026-05-01', financialYearEnd: fye, totalDividendPence: 500_000 },
  });
  t.equal(minutes.status, 201, JSON.stringify(minutes.body.error ?? ''));
  t.match(minutes.body.data, {
    resolutionRef: 'BR-2026-001',
    retainedProfitPence: 750_000,
    totalDividendPence: 500_000,
    remainingAllocationPence: 500_000,
    chairId: jo,
  });
  const bm = minutes.body.data.id as string;

  const declare = (director: string, amountPence: number, paymentMethod = 'bank_transfer') =>
    api.request('POST', '/v1/dividends', { body: { directorId: director, boardMinutesId: bm, amountPence, date: '2026-05-01', paymentMethod } });
  const first = await declare(jo, 300_000);
  t.equal(first.status, 201, JSON.stringify(first.body.error ?? ''));
  t.match(first.body.data, { voucherNumber: 'DIV-0001', status: 'declared', sharesHeld: 60, shareClass: 'Ordinary', resolutionRef: 'BR-2026-001' });
  // £7,500.00 − £3,000.00 = £4,500.00 available.
  t.match(await check(api), { previouslyDeclaredPence: 300_000, availableProfitPence: 450_000 });
  const declared = await balanced(t, api, 'declared');
  const dividends = declared.accounts.find((a: { code: string }) => a.code === '3200');
  const payable = declared.accounts.find((a: { code: string }) => a.code === '2500');
  t.match(dividends, { debit: 300_000 });
  t.match(payable, { credit: 300_000 });

  const overMinutes = await declare(sam, 200_001);
  t.equal(overMinutes.status, 400, 'more than the minutes have left (£2,000.00)');

  // The clock's today is 2026-11-21: a dividend cannot be paid tomorrow yet.
  const early = await api.request('PATCH', `/v1/dividends/${first.body.data.id}/pay`, { body: { date: '2026-11-22' } });
  t.equal(early.status, 400, 'paid after today refused');
  t.match(early.body.error, { code: 'validation_error', field: 'date', message: /cannot be dated after today, 2026-11-21/ });
  t.equal((await api.request('GET', `/v1/dividends/${first.body.data.id}`)).body.data.status, 'declared', 'still declared');
  const paid = await api.request('PATCH', `/v1/dividends/${first.body.data.id}/pay`, { body: { date: '2026-05-15' } });
  t.equal(paid.status, 200, JSON.stringify(paid.body.error ?? ''));
  t.match(paid.body.data, { status: 'paid', datePaid: '2026-05-15' });
  t.match(await check(api), { availableProfitPence: 450_000 }, 'paying changes nothing available');
  const afterPay = await balanced(t, api, 'paid');
  t.notOk(
    afterPay.accounts.some((a: { code: string }) => a.code === '2500'),
    'payable cleared',
  );
  t.equal((await api.request('PATCH', `/v1/dividends/${first.body.data.id}/pay`, { body: {} })).status, 409, 'paid twice refused');

  const voided = await api.request('POST', `/v1/dividends/${first.body.data.id}/void`, { body: { date: '2026-06-01' } });
  t.equal(voided.status, 200, JSON.stringify(voided.body.error ?? ''));
  t.equal(voided.body.data.status, 'void');
  t.match(await check(api), { previouslyDeclaredPence: 0, availableProfitPence: 750_000 }, 'voided: available again');
  const afterVoid = await balanced(t, api, 'voided');
  t.notOk(
    afterVoid.accounts.some((a: { code: string }) => a.code === '3200'),
    'every journal reversed: 3200 back to nothing',
  );
  const twice = await api.request('POST', `/v1/dividends/${first.body.data.id}/void`, { body: {} });
  t.equal(twice.status, 409);
  t.equal(twice.body.error.code, 'already_voided');

  const second = await declare(sam, 200_000);
  t.equal(second.body.data.voucherNumber, 'DIV-0002', 'voucher numbers are never reused');
  const summary = await api.request('GET', `/v1/dividends/summary?financialYearEnd=${fye}`);
  t.same(summary.body.data, [{ directorId: sam, fullName: 'Sam Bloggs', financialYear: fye, totalDeclaredPence: 200_000, totalPaidPence: 0 }]);
});

t.test('set against the director’s loan account: paid at once, the loan reduced', async (t) => {
  const { api, jo, sam } = await company(t);
  const loan = await api.request('POST', '/v1/director-loans', {
    body: { directorId: jo, date: '2026-04-10', description: 'Loan for a car', amountPence: 200_000, loanType: 'loan_to_director' },
  });
  t.equal(loan.status, 201, JSON.stringify(loan.body.error ?? ''));
  const wrongSign = await api.request('POST', '/v1/director-loans', {
    body: { directorId: jo, date: '2026-04-11', description: 'Repaid', amountPence: 50_000, loanType: 'repayment_to_company' },
  });
  t.equal(wrongSign.status, 400);
  t.equal(wrongSign.body.error.field, 'amountPence');

  // £2,500.00 over the 100 Ordinary shares is £25.00 a share: Jo's 60 take £1,500.00 (Sam's 40 would take £1,000.00).
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo, sam], date: '2026-05-01', financialYearEnd: fye, totalDividendPence: 250_000 },
  });
  const r = await api.request('POST', '/v1/dividends', {
    body: { directorId: jo, boardMinutesId: minutes.body.data.id, amountPence: 150_000, date: '2026-05-01', paymentMethod: 'dla_offset' },
  });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  t.match(r.body.data, { status: 'paid', paymentMethod: 'dla_offset', datePaid: '2026-05-01' });
  const movements = (await api.request('GET', `/v1/director-loans?directorId=${jo}`)).body.data as { loanType: string; amountPence: number }[];
  t.same(
    movements.map((m) => [m.loanType, m.amountPence]),
    [
      ['loan_to_director', 200_000],
      ['dividend_offset', -150_000],
    ],
  );
  const tb = await balanced(t, api, 'offset');
  // 2400: £2,000.00 lent less £1,500.00 set against it = £500.00 owed by Jo (a debit).
  t.match(
    tb.accounts.find((a: { code: string }) => a.code === '2400'),
    { debit: 50_000 },
  );
});

t.test('the company features are for limited companies', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { organisation: { businessType: 'sole_trader', vatScheme: 'not_registered' } }));
  const r = await api.request('POST', '/v1/directors', { body: { fullName: 'Jo Bloggs' } });
  t.equal(r.status, 422);
  t.match(r.body.error.message, 'limited companies');
  t.equal((await api.request('GET', '/v1/dividends')).status, 422);
  // The tax calculator is a dividends endpoint too: a sole trader pays no dividends.
  const tax = await api.request('POST', '/v1/dividends/tax-calculator', { body: { grossDividendPence: 2_000_000, taxYear: '2025/26' } });
  t.equal(tax.status, 422, JSON.stringify(tax.body));
  t.equal(tax.body.error.code, 'unprocessable_entity');
  t.match(tax.body.error.message, 'limited companies');
});

t.test('the tax calculator over HTTP: a 2026/27 case worked by hand', async (t) => {
  const { api } = await company(t);
  // £12,570 salary uses the personal allowance. Of £37,700 of dividends the £500 allowance is taxed at 0%
  // (still using band space); the other £37,200 fits the £37,700 basic band: 37,200 × 10.75% = £3,999.00.
  // Net: £37,700.00 − £3,999.00 = £33,701.00.
  const r = await api.request('POST', '/v1/dividends/tax-calculator', {
    body: { grossDividendPence: 3_770_000, otherIncomePence: 1_257_000, taxYear: '2026/27' },
  });
  t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  t.match(r.body.data, {
    taxYear: '2026/27',
    calculation: {
      basicRate: { rate: 0.1075, taxPence: 399_900 },
      higherRate: { taxPence: 0 },
      additionalRate: { taxPence: 0 },
      dividendAllowancePence: 50_000,
      totalTaxPence: 399_900,
      netDividendPence: 3_370_100,
    },
  });
  const bad = await api.request('POST', '/v1/dividends/tax-calculator', { body: { grossDividendPence: 100, taxYear: '2015/16' } });
  t.equal(bad.status, 400);
  t.equal(bad.body.error.field, 'taxYear');
});

t.test('the voucher and the minutes as PDFs over HTTP', async (t) => {
  const { api, jo, sam } = await company(t);
  await api.request('PATCH', `/v1/directors/${jo}`, { body: { address: '1 High Street\nLeeds LS1 1AA' } });
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo, sam], date: '2026-05-01', financialYearEnd: fye, totalDividendPence: 500_000 },
  });
  const bm = minutes.body.data.id as string;
  // £3,000.00 over Jo's 60 shares: £50.0000 a share.
  const d = await api.request('POST', '/v1/dividends', { body: { directorId: jo, boardMinutesId: bm, amountPence: 300_000, date: '2026-05-01' } });
  await api.request('PATCH', `/v1/dividends/${d.body.data.id}/pay`, { body: { date: '2026-05-15' } });

  const voucher = await api.request('GET', `/v1/dividends/${d.body.data.id}/voucher`);
  t.equal(voucher.status, 200);
  t.equal(voucher.headers.get('content-type'), 'application/pdf');
  t.match(voucher.headers.get('content-disposition') ?? '', /DIV-0001\.pdf/);
  const text = straightText(voucher.bytes);
  for (const want of [
    'DIVIDEND VOUCHER',
    'DIV-0001',
    'Jo Bloggs',
    '1 High Street',
    'Ordinary',
    '60',
    '£50.0000',
    '£3,000.00',
    'BR-2026-001',
    '1 May 2026',
    '15 May 2026',
    'Authorised Director',
    'Shareholder Acknowledgement',
  ]) {
    t.match(text, want, `the voucher shows ${want}`);
  }
  t.match(pdfText(voucher.bytes), 'PAID', 'paid: the PAID mark');

  const doc = await api.request('GET', `/v1/dividends/board-minutes/${bm}/pdf`);
  t.equal(doc.status, 200);
  const minutesText = straightText(doc.bytes);
  for (const want of [
    'MINUTES OF A MEETING OF THE BOARD OF DIRECTORS',
    'Jo Bloggs',
    'Sam Bloggs',
    'BR-2026-001',
    '31 March 2026',
    '£7,500.00',
    '£5,000.00',
    '£3,000.00',
    'DIV-0001',
  ]) {
    t.match(minutesText, want, `the minutes show ${want}`);
  }
});

t.test("a director's loan position over HTTP: S455 at the 2026/27 rate, connected persons, snapshots", async (t) => {
  const { api, jo } = await company(t);
  const spouse = (await api.request('POST', '/v1/directors', { body: { fullName: 'Alex Bloggs', connectedToDirectorId: jo, relationship: 'spouse' } })).body
    .data.id as string;
  const half = await api.request('POST', '/v1/directors', { body: { fullName: 'Half', relationship: 'spouse' } });
  t.equal(half.status, 400, 'a relationship without a director');
  const lend = async (directorId: string, date: string, amountPence: number) => {
    const r = await api.request('POST', '/v1/director-loans', { body: { directorId, date, description: 'Loan', amountPence, loanType: 'loan_to_director' } });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  };
  await lend(jo, '2026-04-10', 2_000_000); // £20,000.00 on 10 April 2026: after 6 April 2026, so 35.75%
  await lend(spouse, '2026-05-01', 100_000); // £1,000.00 to Jo's spouse
  const r = await api.request('GET', `/v1/director-loans/balance/${jo}?asOf=2026-11-21`);
  t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
  // The period holding 21 November 2026 runs to 31 March 2027; the deadline is nine months and a day after: 1 January 2028.
  // Still owed: £20,000.00 × 35.75% = £7,150.00, and £1,000.00 × 35.75% = £357.50; £7,507.50 in all.
  t.match(r.body.data, {
    balancePence: 2_000_000,
    aggregatedBalancePence: 2_100_000,
    s455: { exposed: true, exposurePence: 750_750, rate: 35.75, status: 'at_risk', deadline: '2028-01-01', periodEnd: '2027-03-31' },
    bik: { applicable: true, threshold: 1_000_000, taxYear: '2026/27' },
    warningLevel: 'amber',
  });
  const summary = await api.request('GET', '/v1/director-loans/s455-exposure?asOf=2026-11-21');
  t.match(summary.body.data, { totalOverdrawnPence: 2_100_000, totalExposurePence: 750_750 });

  const snap = await api.request('POST', '/v1/director-loans/snapshot', { body: { directorId: jo, periodEndDate: '2026-03-31' } });
  t.equal(snap.status, 201, JSON.stringify(snap.body.error ?? ''));
  t.match(snap.body.data, { balancePence: 0, s455ExposurePence: 0 }, 'nothing lent by 31 March 2026');
  t.equal(
    (await api.request('POST', '/v1/director-loans/snapshot', { body: { directorId: jo, periodEndDate: '2026-03-31' } })).status,
    409,
    'snapshots are kept as taken',
  );
  t.equal(
    (await api.request('POST', '/v1/director-loans/snapshot', { body: { directorId: jo, periodEndDate: '2026-03-30' } })).status,
    400,
    'not a period end',
  );
});

t.test('a financial year end that is not one of the company’s is refused; the same profit cannot be resolved twice by a date a day early', async (t) => {
  const { api, jo, sam } = await company(t);
  // The company's years run 1 April to 31 March: 2026-03-30 ends no year.
  const early = await api.request('GET', '/v1/dividends/profit-check?financialYearEnd=2026-03-30');
  t.equal(early.status, 400);
  t.match(early.body.error, { code: 'validation_error', field: 'financialYearEnd', message: /2026-03-31/ });
  // £7,500.00 of profit resolved in full for the year to 31 March 2026.
  const first = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo, sam], date: '2026-05-01', financialYearEnd: fye, totalDividendPence: 750_000 },
  });
  t.equal(first.status, 201, JSON.stringify(first.body.error ?? ''));
  const again = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo, sam], date: '2026-05-02', financialYearEnd: '2026-03-30', totalDividendPence: 750_000 },
  });
  t.equal(again.status, 400, 'the same £7,500.00 again, against a year end a day early');
  t.match(again.body.error, { code: 'validation_error', field: 'financialYearEnd' });
  const minutes = (await api.request('GET', '/v1/dividends/board-minutes')).body.data as unknown[];
  t.equal(minutes.length, 1, 'the refused minutes left nothing behind');
});

t.test('voiding is dated on or after the dividend was declared, and paid', async (t) => {
  const { api, jo } = await company(t);
  // £1,000.00 over the 100 Ordinary shares is £10.00 a share: Jo's 60 take £600.00.
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo], date: '2026-05-01', financialYearEnd: fye, totalDividendPence: 100_000 },
  });
  const declared = await api.request('POST', '/v1/dividends', {
    body: { directorId: jo, boardMinutesId: minutes.body.data.id, amountPence: 60_000, date: '2026-05-01', paymentMethod: 'bank_transfer' },
  });
  t.equal(declared.status, 201, JSON.stringify(declared.body.error ?? ''));
  const id = declared.body.data.id as string;
  const beforeDeclared = await api.request('POST', `/v1/dividends/${id}/void`, { body: { date: '2026-04-30' } });
  t.equal(beforeDeclared.status, 400);
  t.match(beforeDeclared.body.error, { code: 'validation_error', field: 'date', message: /2026-05-01/ });
  t.equal((await api.request('PATCH', `/v1/dividends/${id}/pay`, { body: { date: '2026-05-15' } })).status, 200);
  const beforePaid = await api.request('POST', `/v1/dividends/${id}/void`, { body: { date: '2026-05-10' } });
  t.equal(beforePaid.status, 400, 'the money cannot come back before it left');
  t.match(beforePaid.body.error, { code: 'validation_error', field: 'date', message: /2026-05-15/ });
  t.equal((await api.request('GET', `/v1/dividends/${id}`)).body.data.status, 'paid', 'the refused voids left it paid');
  const onPayday = await api.request('POST', `/v1/dividends/${id}/void`, { body: { date: '2026-05-15' } });
  t.equal(onPayday.status, 200, JSON.stringify(onPayday.body.error ?? ''));
});

t.test('pay takes paidDate, its published name; void keeps the reason given', async (t) => {
  const { api, jo } = await company(t);
  // £1,000.00 over the 100 Ordinary shares is £10.00 a share: Jo's 60 take £600.00.
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo], date: '2026-05-01', financialYearEnd: fye, totalDividendPence: 100_000 },
  });
  const declared = await api.request('POST', '/v1/dividends', {
    body: { directorId: jo, boardMinutesId: minutes.body.data.id, amountPence: 60_000, date: '2026-05-01', paymentMethod: 'bank_transfer' },
  });
  t.equal(declared.status, 201, JSON.stringify(declared.body.error ?? ''));
  const id = declared.body.data.id as string;
  const clash = await api.request('PATCH', `/v1/dividends/${id}/pay`, { body: { date: '2026-05-15', paidDate: '2026-05-16' } });
  t.equal(clash.status, 400);
  t.match(clash.body.error, { code: 'validation_error', field: 'paidDate' });
  const paid = await api.request('PATCH', `/v1/dividends/${id}/pay`, { body: { paidDate: '2026-05-16' } });
  t.equal(paid.status, 200, JSON.stringify(paid.body.error ?? ''));
  t.match(paid.body.data, { status: 'paid', datePaid: '2026-05-16', voidReason: null });

  const long = await api.request('POST', `/v1/dividends/${id}/void`, { body: { reason: 'x'.repeat(501) } });
  t.equal(long.status, 400);
  t.match(long.body.error, { code: 'validation_error', field: 'reason' });
  t.equal((await api.request('GET', `/v1/dividends/${id}`)).body.data.status, 'paid', 'the refused void left it paid');
  const voided = await api.request('POST', `/v1/dividends/${id}/void`, { body: { reason: 'Declared in error: the accounts were not final' } });
  t.equal(voided.status, 200, JSON.stringify(voided.body.error ?? ''));
  t.match((await api.request('GET', `/v1/dividends/${id}`)).body.data, { status: 'void', voidReason: 'Declared in error: the accounts were not final' });
});

t.test('board meetings are attended by those who were directors on the day: not a connected person, nor one appointed later or resigned before', async (t) => {
  const { api, jo, sam } = await company(t);
  const director = async (body: Record<string, unknown>) => {
    const r = await api.request('POST', '/v1/directors', { body });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
    return r.body.data.id as string;
  };
  const spouse = await director({ fullName: 'Alex Bloggs', connectedToDirectorId: jo, relationship: 'spouse' });
  const late = await director({ fullName: 'Kim Late', appointedDate: '2026-06-01' });
  const gone = await director({ fullName: 'Lee Gone', appointedDate: '2020-01-06' });
  t.equal((await api.request('DELETE', `/v1/directors/${gone}?resignedDate=2026-05-15`)).status, 200);
  // The clock's today is 2026-11-21: an appointment to come, or after the resignation, is not a fact of the register yet.
  const directors = async () => (await api.request('GET', '/v1/directors')).body.data.length as number;
  const count = await directors();
  for (const [method, path, body, message] of [
    ['POST', '/v1/directors', { fullName: 'Pat Future', appointedDate: '2099-01-01' }, /2099-01-01 is after today \(2026-11-21\)/],
    ['POST', '/v1/directors', { fullName: 'Pat Future', appointedDate: '2026-11-22' }, /after today/],
    ['PATCH', `/v1/directors/${late}`, { appointedDate: '2026-11-22' }, /after today/],
    ['PATCH', `/v1/directors/${gone}`, { appointedDate: '2026-05-16' }, /after the resignation on 2026-05-15/],
  ] as const) {
    const r = await api.request(method, path, { body });
    t.equal(r.status, 400, `${method} ${JSON.stringify(body)}`);
    t.match(r.body.error, { code: 'validation_error', field: 'appointedDate', message });
  }
  t.equal(await directors(), count, 'no director added');
  t.match((await api.request('GET', `/v1/directors/${late}`)).body.data, { appointedDate: '2026-06-01' }, 'nor changed');
  const meet = (attendees: string[], date: string) =>
    api.request('POST', '/v1/dividends/board-minutes', { body: { attendees, date, financialYearEnd: fye, totalDividendPence: 100_000 } });
  for (const [who, date, message] of [
    [spouse, '2026-05-01', /Alex Bloggs is connected to a director \(spouse\), not a director/],
    [late, '2026-05-01', /Kim Late was appointed on 2026-06-01, after the meeting of 2026-05-01/],
    [gone, '2026-05-20', /Lee Gone had resigned by the meeting of 2026-05-20 \(on 2026-05-15\)/],
  ] as const) {
    const r = await meet([jo, who], date);
    t.equal(r.status, 400, String(message));
    t.match(r.body.error, { code: 'validation_error', field: 'attendees', message });
  }
  t.equal(((await api.request('GET', '/v1/dividends/board-minutes')).body.data as unknown[]).length, 0, 'the refused minutes left nothing behind');
  // Lee resigned on 15 May 2026: a director still at a meeting on 1 May, and so a valid attendee then.
  const before = await meet([jo, sam, gone], '2026-05-01');
  t.equal(before.status, 201, JSON.stringify(before.body.error ?? ''));
});

// A voucher is the record of a dividend as declared: renaming the shareholder or the
// company later must not rewrite it, or the hash on the copy the shareholder holds no
// longer matches what the company can print again.
t.test('a voucher keeps the names it was declared with (and its hash) when the director or the company is renamed', async (t) => {
  const { api, jo } = await company(t);
  await api.request('PATCH', `/v1/directors/${jo}`, { body: { address: '1 High Street\nLeeds LS1 1AA' } });
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo], date: '2026-05-01', financialYearEnd: fye, totalDividendPence: 500_000 },
  });
  // £5,000.00 over the 100 Ordinary shares is £50.0000 a share: £3,000.00 on Jo's 60.
  const d = await api.request('POST', '/v1/dividends', {
    body: { directorId: jo, boardMinutesId: minutes.body.data.id, amountPence: 300_000, date: '2026-05-01' },
  });
  t.equal(d.status, 201, JSON.stringify(d.body.error ?? ''));
  const before = await api.request('GET', `/v1/dividends/${d.body.data.id}/voucher`);
  const hash = before.headers.get('x-verification-hash') ?? straightText(before.bytes).match(/[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}/)?.[0];
  t.ok(hash, 'the voucher carries a hash');

  t.equal((await api.request('PATCH', `/v1/directors/${jo}`, { body: { fullName: 'Joanna Smith', address: '9 New Road\nYork YO1 7HH' } })).status, 200);
  t.equal((await api.request('PUT', '/v1/organisation', { body: { name: 'Renamed Widgets Ltd' } })).status, 200);

  const after = await api.request('GET', `/v1/dividends/${d.body.data.id}/voucher`);
  t.equal(after.status, 200);
  const text = straightText(after.bytes);
  t.match(text, 'Jo Bloggs', 'the shareholder as declared');
  t.match(text, '1 High Street', "the shareholder's address as declared");
  t.match(text, 'Acme Widgets Ltd', 'the company as declared');
  t.notMatch(text, 'Joanna Smith');
  t.notMatch(text, 'Renamed Widgets Ltd');
  t.match(text, hash!, 'the same verification hash');

  const doc = await api.request('GET', `/v1/dividends/board-minutes/${minutes.body.data.id}/pdf`);
  t.match(straightText(doc.bytes), 'DIV-0001', 'the minutes list the allocation');
  t.match(straightText(doc.bytes), 'Jo Bloggs', "the minutes' allocation names the shareholder as declared");

  // A dividend declared after the rename carries the new names.
  const m2 = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo], date: '2026-06-01', financialYearEnd: fye, totalDividendPence: 100_000 },
  });
  // £1,000.00 over the 100 shares is £10.0000 a share: £600.00 on Jo's 60.
  const d2 = await api.request('POST', '/v1/dividends', {
    body: { directorId: jo, boardMinutesId: m2.body.data.id, amountPence: 60_000, date: '2026-06-01' },
  });
  t.equal(d2.status, 201, JSON.stringify(d2.body.error ?? ''));
  const later = straightText((await api.request('GET', `/v1/dividends/${d2.body.data.id}/voucher`)).bytes);
  t.match(later, 'Joanna Smith');
  t.match(later, 'Renamed Widgets Ltd');
});

// The minutes are the record of the meeting: the company's name and number in their
// header are those it had then, as on the vouchers declared under them, not the ones
// it has since changed to.
t.test('board minutes keep the company name and number of the meeting when the company is renamed', async (t) => {
  const { api, jo } = await company(t);
  t.equal((await api.request('PUT', '/v1/organisation', { body: { companyNumber: '01234567' } })).status, 200);
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo], date: '2026-05-01', financialYearEnd: fye, totalDividendPence: 100_000 },
  });
  t.equal(minutes.status, 201, JSON.stringify(minutes.body.error ?? ''));
  // Minutes with nothing declared under them yet: the company as at the meeting all the same.
  t.equal((await api.request('PUT', '/v1/organisation', { body: { name: 'Renamed Widgets Ltd', companyNumber: 'SC123456' } })).status, 200);
  const doc = await api.request('GET', `/v1/dividends/board-minutes/${minutes.body.data.id}/pdf`);
  t.equal(doc.status, 200);
  const text = straightText(doc.bytes);
  t.match(text, 'Acme Widgets Ltd', 'the company as at the meeting');
  t.match(text, 'Company number: 01234567');
  t.notMatch(text, 'Renamed Widgets Ltd');
  t.notMatch(text, 'SC123456');

  // Minutes of a meeting after the rename carry the new name and number.
  const m2 = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo], date: '2026-06-01', financialYearEnd: fye, totalDividendPence: 100_000 },
  });
  t.equal(m2.status, 201, JSON.stringify(m2.body.error ?? ''));
  const later = straightText((await api.request('GET', `/v1/dividends/board-minutes/${m2.body.data.id}/pdf`)).bytes);
  t.match(later, 'Renamed Widgets Ltd');
  t.match(later, 'Company number: SC123456');
});
