/**
 * Guards on directors' loans, resignations and dividends over HTTP: a
 * movement may not post its other side to a director's loan account
 * itself; a resignation may not be dated after today, and board minutes
 * and declarations agree on who was a director; createJournal false does
 * not let a movement or a dividend into a closed year; the S455 rate of a
 * director with no loan, and what a year-end snapshot keeps. Today is
 * 3 December 2026. Figures worked by hand.
 */
import t, { type Test } from 'tap';
import { company as shared, transactionCount } from './http-support.js';
import { closeFy2025 } from '../ledger-http/support.js';

/** The company of http-support.ts, with Jo Bloggs (100 shares) a director. */
async function company(t: Test) {
  const books = await shared(t);
  return { ...books, jo: await books.director({ fullName: 'Jo Bloggs', sharesHeld: 100 }) };
}

t.test('a movement whose other side is a director’s loan account is refused', async (t) => {
  const { api, id, jo } = await company(t);
  const before = await transactionCount(api);
  const loan = (accountId: string) =>
    api.request('POST', '/v1/director-loans', {
      body: { directorId: jo, date: '2026-05-01', description: 'x', amountPence: 500_000, loanType: 'loan_to_director', accountId },
    });
  const self = await loan(id('2400'));
  t.equal(self.status, 400, 'DR 2400 / CR 2400 would leave the ledger at nil while the loan shows £5,000.00 owed');
  t.equal(self.body.error.code, 'validation_error');
  t.equal(self.body.error.field, 'accountId');

  // A sub-account of 2400 (one per director, say) is a director's loan account too.
  const sub = await api.request('POST', '/v1/accounts', { body: { code: '2401', name: 'DLA Jo Bloggs', accountType: 'liability', parentId: id('2400') } });
  t.equal(sub.status, 201, JSON.stringify(sub.body.error ?? ''));
  const toSub = await loan(sub.body.data.id as string);
  t.equal(toSub.status, 400);
  t.equal(toSub.body.error.field, 'accountId');

  t.same((await api.request('GET', `/v1/director-loans?directorId=${jo}`)).body.data, [], 'no movement recorded');
  t.equal(await transactionCount(api), before, 'no journal posted');
  const position = (await api.request('GET', `/v1/director-loans/balance/${jo}?asOf=2026-12-03`)).body.data;
  t.match(position, { balancePence: 0, s455: { exposurePence: 0 } });

  // Another account is still fine: £5,000.00 out of 2600 Loans.
  const other = await loan(id('2600'));
  t.equal(other.status, 201, JSON.stringify(other.body.error ?? ''));
});

t.test('a resignation dated after today is refused; minutes and declarations agree', async (t) => {
  const { api, director, jo } = await company(t);
  const sam = await director({ fullName: 'Sam Bloggs', sharesHeld: 50 });
  const future = await api.request('DELETE', `/v1/directors/${sam}?resignedDate=2027-06-01`);
  t.equal(future.status, 400);
  t.equal(future.body.error.code, 'validation_error');
  t.equal(future.body.error.field, 'resignedDate');
  t.match((await api.request('GET', `/v1/directors/${sam}`)).body.data, { active: true, resignedDate: null }, 'nothing written');

  // Today is allowed, and from today Sam is neither at meetings nor paid dividends.
  const now = await api.request('DELETE', `/v1/directors/${sam}?resignedDate=2026-12-03`);
  t.equal(now.status, 200, JSON.stringify(now.body.error ?? ''));
  t.match(now.body.data, { active: false, resignedDate: '2026-12-03' });
  // A year's profit of £1,000.00 to 31 March 2026 for the minutes to resolve.
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const code = (c: string) => accounts.find((a) => a.code === c)!.id;
  await api.request('POST', '/v1/transactions', {
    body: {
      date: '2025-06-01',
      description: 'Sales',
      lines: [
        { accountId: code('1200'), amount: 100_000 },
        { accountId: code('4000'), amount: -100_000 },
      ],
    },
  });
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo, sam], date: '2026-12-03', financialYearEnd: '2026-03-31', totalDividendPence: 10_000 },
  });
  t.equal(minutes.status, 400, 'resigned on the day of the meeting: not an attendee');
  t.equal(minutes.body.error.field, 'attendees');
  // £100.00 resolved by Jo alone; Sam, resigned today, is refused a dividend today as he is refused a seat at today's meeting.
  const jos = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo], date: '2026-12-03', financialYearEnd: '2026-03-31', totalDividendPence: 10_000 },
  });
  t.equal(jos.status, 201, JSON.stringify(jos.body.error ?? ''));
  const toSam = await api.request('POST', '/v1/dividends', {
    body: { directorId: sam, boardMinutesId: jos.body.data.id, amountPence: 10_000, date: '2026-12-03' },
  });
  t.equal(toSam.status, 400);
  t.equal(toSam.body.error.field, 'directorId');

  // Two days before he resigned Sam was a director: he sits at that meeting and is declared a dividend of that date.
  // £150.00 over 150 Ordinary shares (Jo 100, Sam 50) is £1.0000 a share: £50.00 on Sam's 50.
  const before = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo, sam], date: '2026-12-01', financialYearEnd: '2026-03-31', totalDividendPence: 15_000 },
  });
  t.equal(before.status, 201, JSON.stringify(before.body.error ?? ''));
  // Sam's 50 still count in the class that day: £75.00 on his 50 is £1.50 a share, £225.00 on all 150, beyond the £150.00 resolved.
  const tooMuch = await api.request('POST', '/v1/dividends', {
    body: { directorId: sam, boardMinutesId: before.body.data.id, amountPence: 7_500, date: '2026-12-01' },
  });
  t.equal(tooMuch.status, 400, 'his shares count in the class as it stood at the meeting');
  t.equal(tooMuch.body.error.field, 'amountPence');
  const backdated = await api.request('POST', '/v1/dividends', {
    body: { directorId: sam, boardMinutesId: before.body.data.id, amountPence: 5_000, date: '2026-12-01' },
  });
  t.equal(backdated.status, 201, `declared as of before his resignation: ${JSON.stringify(backdated.body.error ?? '')}`);
});

t.test('createJournal false does not get a movement or a dividend into a closed year', async (t) => {
  const { api, id, jo } = await company(t);
  // £10,000.00 of sales on 1 June 2025 so that the minutes have profit to resolve.
  const sale = await api.request('POST', '/v1/transactions', {
    body: {
      date: '2025-06-01',
      description: 'Sales',
      lines: [
        { accountId: id('1200'), amount: 1_000_000 },
        { accountId: id('4000'), amount: -1_000_000 },
      ],
    },
  });
  t.equal(sale.status, 201, JSON.stringify(sale.body.error ?? ''));
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [jo], date: '2026-03-01', financialYearEnd: '2026-03-31', totalDividendPence: 200_000 },
  });
  t.equal(minutes.status, 201, JSON.stringify(minutes.body.error ?? ''));
  await closeFy2025(t, api);

  const loan = (createJournal?: boolean) =>
    api.request('POST', '/v1/director-loans', {
      body: { directorId: jo, date: '2026-03-01', description: 'Loan', amountPence: 100_000, loanType: 'loan_to_director', createJournal },
    });
  const withJournal = await loan();
  t.equal(withJournal.status, 422);
  t.match(withJournal.body.error.message, /is closed/);
  const without = await loan(false);
  t.equal(without.status, 422, 'no journal, but the closed year’s loan position would change');
  t.same(without.body.error, withJournal.body.error, 'the same code and message as with a journal');
  t.same((await api.request('GET', `/v1/director-loans?directorId=${jo}`)).body.data, [], 'nothing recorded');
  t.match((await api.request('GET', `/v1/director-loans/balance/${jo}?asOf=2026-03-31`)).body.data, { balancePence: 0, s455: { exposurePence: 0 } });

  const declare = (createJournal?: boolean) =>
    api.request('POST', '/v1/dividends', {
      body: { directorId: jo, boardMinutesId: minutes.body.data.id, amountPence: 100_000, date: '2026-03-02', createJournal },
    });
  const declared = await declare();
  t.equal(declared.status, 422);
  const unjournalled = await declare(false);
  t.equal(unjournalled.status, 422, 'a dividend dated in the closed year');
  t.same(unjournalled.body.error, declared.body.error, 'the same code and message as with a journal');
  t.same((await api.request('GET', '/v1/dividends')).body.data, [], 'no dividend');

  // In the open year, createJournal false still records the movement (and posts nothing).
  const open = await api.request('POST', '/v1/director-loans', {
    body: { directorId: jo, date: '2026-04-01', description: 'Loan', amountPence: 100_000, loanType: 'loan_to_director', createJournal: false },
  });
  t.equal(open.status, 201, JSON.stringify(open.body.error ?? ''));
  t.equal(open.body.data.transactionId, null);
});

t.test('the S455 rate with no loan', async (t) => {
  const { api, jo } = await company(t);
  // No loan: the rate a loan made on the as-of date would bear. 31 March 2026 is before 6 April 2026: 33.75%.
  const position = (await api.request('GET', `/v1/director-loans/balance/${jo}?asOf=2026-03-31`)).body.data;
  t.equal(position.s455.rate, 33.75);
  // The year-end pack for the year to 31 March 2026, prepared today (3 December 2026): loans at the year end, so still 33.75%.
  const pack = await api.request('GET', '/v1/company/year-end?year=2026');
  t.equal(pack.status, 200, JSON.stringify(pack.body.error ?? ''));
  t.equal(pack.body.data.directorLoans[0].s455.rate, 33.75);
  // On or after 6 April 2026 the rate is 35.75%.
  t.equal((await api.request('GET', `/v1/director-loans/balance/${jo}?asOf=2026-12-03`)).body.data.s455.rate, 35.75);
});

t.test('what a year-end snapshot keeps', async (t) => {
  const { api, director, jo } = await company(t);
  // Jo borrows £12,000.00 on 1 June 2025; a connected person (spouse) £3,000.00 on 1 July 2025.
  const spouse = await director({ fullName: 'Pat Bloggs', connectedToDirectorId: jo, relationship: 'spouse' });
  for (const [who, date, amountPence] of [
    [jo, '2025-06-01', 1_200_000],
    [spouse, '2025-07-01', 300_000],
  ] as const) {
    const r = await api.request('POST', '/v1/director-loans', {
      body: { directorId: who, date, description: 'Loan', amountPence, loanType: 'loan_to_director' },
    });
    t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  }
  const snap = await api.request('POST', '/v1/director-loans/snapshot', { body: { directorId: jo, periodEndDate: '2026-03-31' } });
  t.equal(snap.status, 201, JSON.stringify(snap.body.error ?? ''));
  t.match(snap.body.data, {
    balancePence: 1_200_000,
    // £12,000.00 + £3,000.00 = £15,000.00 with the spouse.
    aggregatedBalancePence: 1_500_000,
    // £15,000.00 still owed × 33.75% = £5,062.50 (deadline 1 January 2027, to come).
    s455ExposurePence: 506_250,
    deadline: '2027-01-01',
    deadlineStatus: 'at_risk',
    // The period ends 31 March 2026, in tax year 2025/26. Jo's own £12,000.00 (over £10,000) from 1 June 2025: highest on the day
    // it went overdrawn £12,000 and on 5 April 2026 £12,000, averaged £12,000; whole tax months 6 June 2025 to 5 April 2026 = 10;
    // £12,000 × 10/12 × 3.75% = £375.00.
    bikTaxYear: '2025/26',
    bikBenefitPence: 37_500,
  });
  const listed = (await api.request('GET', `/v1/director-loans/snapshots?directorId=${jo}`)).body.data;
  t.match(listed, [{ aggregatedBalancePence: 1_500_000, bikTaxYear: '2025/26' }], 'kept as taken');
});
