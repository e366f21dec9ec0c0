/**
 * S455 over HTTP once a loan's year has ended: the position, the S455
 * summary and the year-end pack keep a loan of an earlier accounting period
 * in view while it is owed (at risk until its deadline, due after), and the
 * pack counts repayments made after the year end up to the day it is
 * prepared, as the CT600A does. Figures worked by hand.
 */
import t, { type Test } from 'tap';
import { newBooks, serveBooks, type Api } from '../helpers/index.js';

/** A company whose years end on 31 March; today is 2 December 2026. Jo borrowed £20,000.00 on 1 June 2025 and repaid £5,000.00 on 1 November 2026. */
async function books(t: Test): Promise<{ api: Api; jo: string }> {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-12-02T10:00:00Z' }));
  const jo = (await api.request('POST', '/v1/directors', { body: { fullName: 'Jo Bloggs', sharesHeld: 100 } })).body.data.id as string;
  for (const [date, amountPence, loanType] of [
    ['2025-06-01', 2_000_000, 'loan_to_director'],
    ['2026-11-01', -500_000, 'repayment_to_company'],
  ] as const) {
    const r = await api.request('POST', '/v1/director-loans', { body: { directorId: jo, date, description: loanType, amountPence, loanType } });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  }
  return { api, jo };
}

async function get(t: Test, api: Api, path: string) {
  const r = await api.request('GET', path);
  t.equal(r.status, 200, `${path}: ${JSON.stringify(r.body.error ?? '')}`);
  return r.body.data;
}

t.test('last year’s loan, still owed, is at risk until its deadline and due after it', async (t) => {
  const { api, jo } = await books(t);
  // The loan was made in the year to 31 March 2026, before 6 April 2026: 33.75%. Its deadline is nine months and a day
  // after that year end: 1 January 2027. Owed on 2 December 2026: 20,000.00 − 5,000.00 = 15,000.00, so S455 of
  // 15,000.00 × 33.75% = 5,062.50. Nothing was lent in the year to 31 March 2027, which holds the date.
  const now = await get(t, api, `/v1/director-loans/balance/${jo}?asOf=2026-12-02`);
  t.match(now, {
    balancePence: 1_500_000,
    s455: { exposed: true, exposurePence: 506_250, rate: 33.75, status: 'at_risk', deadline: '2027-01-01', periodEnd: '2026-03-31' },
    warningLevel: 'amber',
  });
  t.same(now.s455.periods, [
    { periodStart: '2025-04-01', periodEnd: '2026-03-31', deadline: '2027-01-01', status: 'at_risk', outstandingPence: 1_500_000, exposurePence: 506_250 },
    { periodStart: '2026-04-01', periodEnd: '2027-03-31', deadline: '2028-01-01', status: 'clear', outstandingPence: 0, exposurePence: 0 },
  ]);

  // On the deadline the £15,000.00 is still owed: the £5,062.50 is due, and the account is red.
  const onDeadline = await get(t, api, `/v1/director-loans/balance/${jo}?asOf=2027-01-01`);
  t.match(onDeadline, { s455: { exposurePence: 506_250, status: 'due', deadline: '2027-01-01' }, warningLevel: 'red' });
  const summary = await get(t, api, '/v1/director-loans/s455-exposure?asOf=2027-01-02');
  t.match(summary, {
    totalOverdrawnPence: 1_500_000,
    totalExposurePence: 506_250,
    directors: [{ fullName: 'Jo Bloggs', status: 'due', s455ExposurePence: 506_250 }],
  });
});

t.test('a loan of an earlier year repaid in full drops out of the position', async (t) => {
  const { api, jo } = await books(t);
  const repaid = await api.request('POST', '/v1/director-loans', {
    body: { directorId: jo, date: '2026-12-01', description: 'Rest repaid', amountPence: -1_500_000, loanType: 'repayment_to_company' },
  });
  t.equal(repaid.status, 201);
  const now = await get(t, api, `/v1/director-loans/balance/${jo}?asOf=2026-12-02`);
  // Amber still, not for S455: more than £10,000.00 was owed in the tax year 2026/27, a benefit in kind (P11D).
  t.match(now, {
    balancePence: 0,
    s455: { exposed: false, exposurePence: 0, status: 'clear', periodEnd: '2027-03-31' },
    bik: { applicable: true, taxYear: '2026/27' },
    warningLevel: 'amber',
  });
  t.equal(now.s455.periods.length, 1, 'only the year holding the date');
});

t.test('the year-end pack counts what was repaid by the day it is prepared', async (t) => {
  const { api } = await books(t);
  // Prepared today (2 December 2026): the £5,000.00 repaid on 1 November 2026, before the deadline, relieves the loan:
  // 15,000.00 × 33.75% = 5,062.50. The balance shown is the year end's: £20,000.00.
  const today = await get(t, api, '/v1/company/year-end?year=2026');
  t.match(today, {
    preparedOn: '2026-12-02',
    totalS455ExposurePence: 506_250,
    directorLoans: [{ balancePence: 2_000_000, s455: { exposurePence: 506_250, status: 'at_risk', deadline: '2027-01-01', periodEnd: '2026-03-31' } }],
  });
  // Prepared on 31 October 2026, before the repayment: 20,000.00 × 33.75% = 6,750.00.
  const before = await get(t, api, '/v1/company/year-end?year=2026&preparedOn=2026-10-31');
  t.match(before, { preparedOn: '2026-10-31', totalS455ExposurePence: 675_000 });

  for (const [preparedOn, why] of [
    ['2026-12-03', 'after today'],
    ['2026-03-30', 'before the year end'],
  ] as const) {
    const r = await api.request('GET', `/v1/company/year-end?year=2026&preparedOn=${preparedOn}`);
    t.equal(r.status, 400, why);
    t.match(r.body.error, { code: 'validation_error', field: 'preparedOn' });
  }
});
