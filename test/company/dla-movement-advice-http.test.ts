/**
 * The reply to a director's loan movement (POST /director-loans, acct dla
 * add) says where the account stands after it, as FreeAgent warns on an
 * overdrawn director's loan: the balance, the warning level and, in words,
 * S455 at risk, bed and breakfasting and a benefit in kind. Today is
 * 3 December 2026; the books' year ends 31 March. Figures worked by hand.
 */
import t from 'tap';
import { company } from './http-support.js';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { init } from '../cli/support.js';

t.test('an advance overdrawing the account: amber, S455 at risk with its figure and deadline, a benefit in kind over £10,000', async (t) => {
  const { api, director } = await company(t);
  const jo = await director({ fullName: 'Jo Bloggs', sharesHeld: 100 });
  const r = await api.request('POST', '/v1/director-loans', {
    body: { directorId: jo, date: '2026-05-01', description: 'Advance', amountPence: 1_200_000, loanType: 'loan_to_director' },
  });
  t.equal(r.status, 201, JSON.stringify(r.body.error ?? ''));
  // £12,000.00 lent in the year to 31 March 2027, owed today; its deadline is nine months and a day after: 1 January 2028.
  // S455 at 35.75% (the dividend upper rate from 6 April 2026, which s455 follows; reference §10): 12,000.00 × 0.3575 = £4,290.00.
  t.match(r.body.data, { amountPence: 1_200_000, balancePence: 1_200_000, warningLevel: 'amber' });
  const warnings = r.body.data.warnings as string[];
  t.ok(
    warnings.some((w) => /£4,290\.00/.test(w) && /35\.75%/.test(w) && /£12,000\.00/.test(w) && /2028-01-01/.test(w) && /2027-03-31/.test(w)),
    `S455 at risk: ${JSON.stringify(warnings)}`,
  );
  // Over £10,000.00 owed in the tax year 2026/27: a beneficial loan.
  t.ok(
    warnings.some((w) => /benefit in kind/.test(w) && /2026\/27/.test(w)),
    `benefit in kind: ${JSON.stringify(warnings)}`,
  );
});

t.test('a small advance repaid: green, no warnings; the balance after each movement', async (t) => {
  const { api, director } = await company(t);
  const jo = await director({ fullName: 'Jo Bloggs', sharesHeld: 100 });
  const post = (date: string, amountPence: number, loanType: string) =>
    api.request('POST', '/v1/director-loans', { body: { directorId: jo, date, description: 'x', amountPence, loanType } });
  const lent = await post('2026-05-01', 50_000, 'loan_to_director');
  // £500.00 owed: overdrawn, S455 at risk (£500.00 × 35.75% = £178.75), no benefit in kind (under £10,000).
  t.match(lent.body.data, { balancePence: 50_000, warningLevel: 'amber' });
  t.ok((lent.body.data.warnings as string[]).some((w) => /£178\.75/.test(w)));
  t.notOk((lent.body.data.warnings as string[]).some((w) => /benefit in kind/.test(w)));
  const repaid = await post('2026-06-01', -50_000, 'repayment_to_company');
  t.equal(repaid.status, 201, JSON.stringify(repaid.body.error ?? ''));
  // 500.00 − 500.00 = nil: nothing at risk.
  t.match(repaid.body.data, { balancePence: 0, warningLevel: 'green', warnings: [] });
});

t.test('a repayment borrowed back within 30 days: red, bed and breakfasting named', async (t) => {
  const { api, director } = await company(t);
  const jo = await director({ fullName: 'Jo Bloggs', sharesHeld: 100 });
  const post = (date: string, amountPence: number, loanType: string) =>
    api.request('POST', '/v1/director-loans', { body: { directorId: jo, date, description: 'x', amountPence, loanType } });
  await post('2026-04-10', 800_000, 'loan_to_director');
  await post('2026-05-01', -800_000, 'repayment_to_company');
  // £8,000.00 repaid on 1 May and £8,000.00 borrowed again on 20 May: 19 days apart, both £5,000.00 or more (CTA 2010 s464C).
  const again = await post('2026-05-20', 800_000, 'loan_to_director');
  t.equal(again.status, 201, JSON.stringify(again.body.error ?? ''));
  t.match(again.body.data, { balancePence: 800_000, warningLevel: 'red' });
  t.ok(
    (again.body.data.warnings as string[]).some((w) => /bed and breakfast/i.test(w) && /s464C/.test(w)),
    JSON.stringify(again.body.data.warnings),
  );
});

t.test('acct dla add prints the balance, the warning level and the warnings after the movement', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const jo = await runCliInProcessJson(['--data', dir, '--json', 'directors', 'add', '--full-name', 'Jo Bloggs', '--shares-held', '100']);
  const id = (jo.data as { id: string }).id;
  const r = await runCliInProcess([
    '--data',
    dir,
    'dla',
    'add',
    '--director-id',
    id,
    '--date',
    '2026-04-10',
    '--description',
    'Car',
    '--amount',
    '1500.00',
    '--loan-type',
    'loan_to_director',
  ]);
  t.equal(r.status, 0, r.stderr);
  // £1,500.00 owed: amber; S455 £1,500.00 × 35.75% = £536.25 unless repaid before 1 January 2028.
  t.match(r.stdout, /balance\s+1,500\.00/);
  t.match(r.stdout, /warningLevel\s+amber/);
  t.match(r.stdout, /S455 tax of £536\.25 \(35\.75% of £1,500\.00 lent to Jo Bloggs in the year to 2027-03-31\) is due unless it is repaid before 2028-01-01/);
});
