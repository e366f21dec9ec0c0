/**
 * Entries on 2400 Director's Loan Account posted other than by a loan
 * movement (a journal, a bank line categorised to 2400): the loan reports,
 * the S455 summary and the year-end pack count them, as the only director's
 * or, with several directors, unallocated. S455 worked by hand.
 */
import t from 'tap';
import { company } from './support.js';

t.test("with one director, 2400 entries from the ledger are that director's", async (t) => {
  const { json, post, director } = await company(t);
  const jo = await director('Jo D', 100);
  // £1,000.00 lent on 5 January 2026 as a movement; £2,000.00 of a personal bill posted straight to 2400 on 10 January.
  await json('dla', 'add', '--director-id', jo, '--date', '2026-01-05', '--description', 'Loan', '--amount-pence', '1000', '--loan-type', 'loan_to_director');
  await post('2026-01-10', "Director's personal bill", '2400=2000', '1200=-2000');

  // Owed at 31 March 2026: 1,000 + 2,000 = £3,000.00, all lent in the year to 31 March 2026 at 33.75%: 3,000 × 33.75% = £1,012.50.
  const [position] = (await json('dla', 'balances', '--as-of', '2026-03-31')) as unknown as Record<string, unknown>[];
  t.match(position, { fullName: 'Jo D', balancePence: 300_000, fromLedgerPence: 200_000, s455: { exposurePence: 101_250 } });
  t.match((position!.warnings as string[])[0], "£2,000.00 posted to 2400 Director's Loan Account");
  const s455 = await json('dla', 's455', '--as-of', '2026-03-31');
  t.match(s455, {
    totalOverdrawnPence: 300_000,
    totalExposurePence: 101_250,
    unallocatedPence: 0,
    directors: [{ balancePence: 300_000, s455ExposurePence: 101_250 }],
  });

  // The pack prepared on 1 June 2026, nothing repaid: the same £1,012.50.
  const pack = await json('company', 'year-end', '--year', '2026', '--prepared-on', '2026-06-01');
  t.match(pack, {
    totalS455ExposurePence: 101_250,
    unallocatedDirectorLoan: { balancePence: 0, s455ExposurePence: 0 },
    directorLoans: [{ balancePence: 300_000 }],
  });
});

t.test('with two directors, 2400 entries from the ledger are unallocated, with their own S455', async (t) => {
  const { json, post, director } = await company(t);
  const jo = await director('Jo D', 50);
  await director('Al B', 50);
  await json('dla', 'add', '--director-id', jo, '--date', '2026-01-05', '--description', 'Loan', '--amount-pence', '1000', '--loan-type', 'loan_to_director');
  await post('2026-01-10', "A director's personal bill", '2400=2000', '1200=-2000');

  // Jo: £1,000.00 × 33.75% = £337.50; unallocated £2,000.00 × 33.75% = £675.00; in all £1,012.50.
  const s455 = await json('dla', 's455', '--as-of', '2026-03-31');
  t.match(s455, {
    totalOverdrawnPence: 300_000,
    totalExposurePence: 101_250,
    unallocatedPence: 200_000,
    unallocatedS455ExposurePence: 67_500,
    directors: [
      { fullName: 'Al B', balancePence: 0, s455ExposurePence: 0 },
      { fullName: 'Jo D', balancePence: 100_000, s455ExposurePence: 33_750 },
    ],
  });
  t.match((s455.warnings as string[])[0], "2400 Director's Loan Account in the ledger at 2026-03-31 is £2,000.00 more than the directors' loan accounts");

  const pack = await json('company', 'year-end', '--year', '2026', '--prepared-on', '2026-06-01');
  t.match(pack, { totalS455ExposurePence: 101_250, unallocatedDirectorLoan: { balancePence: 200_000, s455ExposurePence: 67_500 } });
  t.equal((pack.warnings as string[]).length, 1);
});
