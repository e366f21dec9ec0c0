/**
 * Voiding a dividend set against the loan after its year closed: the
 * closed year's movement stays and a reversing movement is dated as the
 * reversing journal, so the loan accounts and 2400 agree on every date.
 * Today is 3 December 2026. Figures worked by hand.
 */
import t from 'tap';
import { company, trialBalance } from './http-support.js';
import { closeFy2025 } from '../ledger-http/support.js';

t.test('voiding a dividend set against the loan after its year closed reverses the movement on the void’s date', async (t) => {
  const { api, director, movement, journal } = await company(t);
  const alice = await director({ fullName: 'Alice Able', sharesHeld: 50, appointedDate: '2025-04-01' });
  const bob = await director({ fullName: 'Bob Baker', sharesHeld: 50, appointedDate: '2025-04-01' });
  // £40,000.00 of sales on 1 June 2025: the profit of the year to 31 March 2026.
  await journal('2025-06-01', 'Sales', [
    ['1200', 4_000_000],
    ['4000', -4_000_000],
  ]);
  // Bob borrows £16,000.00 on 1 June 2025; £6,000.00 goes out through 2400 on 10 January 2026 with no movement (unallocated).
  await movement(bob, '2025-06-01', 1_600_000);
  await journal('2026-01-10', 'Drawn, whose?', [
    ['2400', 600_000],
    ['1200', -600_000],
  ]);
  // £20,000.00 resolved on 25 March 2026 over 100 shares, £200.00 a share: Bob's 50 take £10,000.00, set against his loan at once.
  const minutes = await api.request('POST', '/v1/dividends/board-minutes', {
    body: { attendees: [alice, bob], date: '2026-03-25', financialYearEnd: '2026-03-31', totalDividendPence: 2_000_000 },
  });
  t.equal(minutes.status, 201, JSON.stringify(minutes.body.error ?? ''));
  const div = await api.request('POST', '/v1/dividends', {
    body: { directorId: bob, boardMinutesId: minutes.body.data.id, amountPence: 1_000_000, date: '2026-03-25', paymentMethod: 'dla_offset' },
  });
  t.equal(div.status, 201, JSON.stringify(div.body.error ?? ''));
  await closeFy2025(t, api);

  const voided = await api.request('POST', `/v1/dividends/${div.body.data.id}/void`, { body: {} });
  t.equal(voided.status, 200, JSON.stringify(voided.body.error ?? ''));

  const movements = (await api.request('GET', `/v1/director-loans?directorId=${bob}`)).body.data as {
    date: string;
    amountPence: number;
    loanType: string;
    dividendId: string | null;
    transactionId: string | null;
  }[];
  t.same(
    movements.map((m) => [m.date, m.amountPence, m.loanType, m.dividendId]),
    [
      ['2025-06-01', 1_600_000, 'loan_to_director', null],
      ['2026-03-25', -1_000_000, 'dividend_offset', div.body.data.id],
      ['2026-12-03', 1_000_000, 'dividend_offset', div.body.data.id],
    ],
    'the closed year’s set-off stays; its reversal is dated as the reversing journal, today',
  );
  t.not(movements[2]?.transactionId ?? null, null, 'the reversal carries the reversing journal');

  // On every date the loan accounts and 2400 agree, less the £6,000.00 no movement made.
  // 31 March 2026: 2400 = 16,000 + 6,000 − 10,000 = £12,000.00 Dr; Bob 16,000 − 10,000 = £6,000.00; unallocated £6,000.00.
  // 3 December 2026: 2400 = 12,000 + 10,000 = £22,000.00 Dr; Bob £16,000.00; unallocated £6,000.00.
  for (const [asOf, ledger, bobs] of [
    ['2026-03-31', 1_200_000, 600_000],
    ['2026-12-03', 2_200_000, 1_600_000],
  ] as const) {
    t.equal(await trialBalance(api, asOf, '2400'), ledger, `2400 at ${asOf}`);
    t.match((await api.request('GET', `/v1/director-loans/balance/${bob}?asOf=${asOf}`)).body.data, { balancePence: bobs }, `Bob at ${asOf}`);
    t.match((await api.request('GET', `/v1/director-loans/s455-exposure?asOf=${asOf}`)).body.data, { unallocatedPence: 600_000 }, `gap at ${asOf}`);
  }

  // The year-end pack to 31 March 2026, prepared today: at the year end the dividend stood, declared and set against Bob's loan
  // (3200 £10,000.00 Dr that day, the void came after), and his loan account shows it: the unallocated £6,000.00 is not netted
  // against a phantom −£10,000.00.
  const pack = await api.request('GET', '/v1/company/year-end?year=2026');
  t.equal(pack.status, 200, JSON.stringify(pack.body.error ?? ''));
  t.match(pack.body.data.unallocatedDirectorLoan, { balancePence: 600_000 });
  t.match(
    (pack.body.data.directorLoans as { directorId: string }[]).find((l) => l.directorId === bob),
    { balancePence: 600_000 },
  );
  t.match(pack.body.data.dividends, { declaredPence: 1_000_000, paidPence: 1_000_000, owedAtYearEndPence: 0 });
  // Known today the dividend is void: the £40,000.00 of profit is all available.
  t.match(pack.body.data.profitCheck, { previouslyDeclaredPence: 0, availableProfitPence: 4_000_000 });
});
