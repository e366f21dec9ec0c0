/**
 * A dividend_offset movement comes only from a dividend paid against the
 * loan (POST /dividends with paymentMethod dla_offset), never on its own
 * over POST /director-loans. Today is 3 December 2026.
 */
import t from 'tap';
import { company, transactionCount, trialBalance } from './http-support.js';

t.test('a dividend_offset movement is not recorded on its own', async (t) => {
  const { api, director, movement } = await company(t);
  const eve = await director({ fullName: 'Eve Example', sharesHeld: 100 });
  await movement(eve, '2026-05-01', 1_200_000);
  // No profit at all: nothing is available for the year to 28 February 2027... nor for any year. A "dividend" of £12,000.00 set
  // against the loan would clear it, make S455 clear, and leave 2500 Dividends Payable £12,000.00 Dr with no dividend behind it.
  const before = await transactionCount(api);
  const r = await api.request('POST', '/v1/director-loans', {
    body: { directorId: eve, date: '2026-12-01', description: 'div', amountPence: -1_200_000, loanType: 'dividend_offset' },
  });
  t.equal(r.status, 400, JSON.stringify(r.body));
  t.equal(r.body.error.code, 'validation_error');
  t.equal(r.body.error.field, 'loanType');
  t.match(r.body.error.message, /dla_offset/, 'names the way to do it: a dividend paid with paymentMethod dla_offset');
  // Nor without a journal.
  const bare = await api.request('POST', '/v1/director-loans', {
    body: { directorId: eve, date: '2026-12-01', description: 'div', amountPence: -1_200_000, loanType: 'dividend_offset', createJournal: false },
  });
  t.equal(bare.status, 400);
  t.equal(bare.body.error.field, 'loanType');

  t.equal(await transactionCount(api), before, 'no journal posted');
  const movements = (await api.request('GET', `/v1/director-loans?directorId=${eve}`)).body.data as { loanType: string }[];
  t.same(
    movements.map((m) => m.loanType),
    ['loan_to_director'],
    'only the loan',
  );
  // Eve still owes £12,000.00; 2500 is untouched.
  t.match((await api.request('GET', `/v1/director-loans/balance/${eve}?asOf=2026-12-03`)).body.data, { balancePence: 1_200_000 });
  t.equal(await trialBalance(api, '2026-12-03', '2500'), 0);
});
