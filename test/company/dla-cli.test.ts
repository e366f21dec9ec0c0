/**
 * `acct dla` through the commander program: a movement against 2400 itself
 * refused, and the loan position printed in pounds, the benefit-in-kind
 * threshold included.
 */
import t from 'tap';
import { runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { init } from '../cli/support.js';

t.test('acct dla add and acct dla balance', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const jo = (await runCliInProcessJson(['--data', dir, '--json', 'directors', 'add', '--full-name', 'Jo Bloggs', '--shares-held', '100'])).data as {
    id: string;
  };
  const add = (...extra: string[]) =>
    acct('dla', 'add', '--director-id', jo.id, '--date', '2026-05-01', '--description', 'x', '--amount', '5,000', '--loan-type', 'loan_to_director', ...extra);
  const self = await add('--account-id', '2400');
  t.equal(self.status, 2, `DR 2400 / CR 2400 refused as bad input: ${self.stdout}`);
  t.match(self.stderr, /field --account-id/);
  const none = await runCliInProcessJson(['--data', dir, '--json', 'dla', 'list', '--director-id', jo.id]);
  t.same(none.data, [], 'nothing recorded');

  t.equal((await add()).status, 0, 'from the bank');
  const balance = await acct('dla', 'balance', jo.id, '--as-of', '2026-05-01');
  t.equal(balance.status, 0, balance.stderr);
  // £5,000.00 lent on 1 May 2026, after 6 April 2026: S455 at 35.75% = £1,787.50.
  t.match(balance.stdout, /balance\s+5,000\.00/);
  t.match(balance.stdout, /exposure\s+1,787\.50/);
  t.notMatch(balance.stdout, /Pence/, 'money fields are named in pounds, as the amounts are printed');
  // The benefit-in-kind threshold is £10,000.00, printed in pounds like every amount.
  t.match(balance.stdout, /threshold\s+10,000\.00/);
  t.notMatch(balance.stdout, /1000000/);

  // Money flags are typed in pounds and named without the API's unit; the old name still works, out of help.
  const help = await acct('dla', 'add', '--help');
  t.match(help.stdout, /--amount <pounds>\s+amount; in pounds/);
  t.notMatch(help.stdout, /amount-pence/);
  const old = await acct(
    'dla',
    'add',
    '--director-id',
    jo.id,
    '--date',
    '2026-05-02',
    '--description',
    'y',
    '--amount-pence',
    '1,000',
    '--loan-type',
    'loan_to_director',
  );
  t.equal(old.status, 0, old.stderr);
  // £5,000.00 + £1,000.00 = £6,000.00: --amount-pence 1,000 is pounds, as before.
  t.match((await acct('dla', 'balance', jo.id, '--as-of', '2026-05-02')).stdout, /balance\s+6,000\.00/);
});
