/**
 * A director by name on the command line, as contacts are: wherever a
 * command takes a director's id (dla, directors, dividends, board
 * minutes, snapshots) it also takes the director's full name, exact then a
 * unique start, ignoring case; an ambiguous start lists the candidates
 * (400), an unknown name is 404, and neither writes. Through the commander
 * program. `acct dla add --director-id "Jo Bloggs"` said "--director-id
 * must be an id starting dir_".
 */
import t from 'tap';
import { runCliInProcess } from '../helpers/index.js';
import { acctJson, init } from '../cli/support.js';

t.test('a director by full name or its start, wherever a director id goes', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  const acct = (...args: string[]) => acctJson(t, dir, args);
  // A year's profit of £4,000.00 to 31 March 2026.
  t.equal((await runCliInProcess(['--data', dir, 'post', '2025-07-01', 'Consulting', '1200=4000', '4000=-4000'])).status, 0);
  const jo = (await acct('directors', 'add', '--full-name', 'Jo Bloggs', '--shares-held', '60')).id as string;
  const sam = (await acct('directors', 'add', '--full-name', 'Sam Smith', '--shares-held', '40')).id as string;

  t.equal((await acct('directors', 'get', 'Jo Bloggs')).id, jo, 'directors get: the exact full name');
  t.equal((await acct('directors', 'get', 'sam')).id, sam, 'a unique start, either case');
  t.equal((await acct('directors', 'update', 'jo bloggs', '--email', 'jo@example.com')).email, 'jo@example.com', 'directors update');
  const spouse = await acct('directors', 'add', '--full-name', 'Alex Bloggs', '--connected-to-director-id', 'Jo', '--relationship', 'spouse');
  t.equal(spouse.connectedToDirectorId, jo, '--connected-to-director-id');

  const loan = await acct(
    'dla',
    'add',
    '--director-id',
    'Jo Bloggs',
    '--date',
    '2026-04-10',
    '--description',
    'Car',
    '--amount',
    '1,500.00',
    '--loan-type',
    'loan_to_director',
  );
  t.equal(loan.directorId, jo, 'dla add --director-id "Jo Bloggs"');
  t.equal((await acct('dla', 'list', '--director-id', 'JO')).length, 1, 'dla list');
  // £1,500.00 lent on 10 April 2026 and nothing repaid: the balance is £1,500.00.
  t.match(await acct('dla', 'balance', 'Jo Bloggs', '--as-of', '2026-04-30'), { directorId: jo, balancePence: 150_000 }, 'dla balance DIRECTOR');
  t.equal((await acct('dla', 'snapshot', '--director-id', 'Jo', '--period-end-date', '2026-03-31')).directorId, jo, 'dla snapshot');
  t.equal((await acct('dla', 'snapshots', '--director-id', 'Jo')).length, 1, 'dla snapshots');

  const minutes = await acct(
    'dividends',
    'minutes',
    '--attendees',
    'Jo Bloggs,sam smith',
    '--chair-id',
    'Sam',
    '--date',
    '2026-05-01',
    '--financial-year-end',
    '2026-03-31',
    '--total-dividend',
    '2,500.00',
  );
  t.same(
    minutes.attendees.map((a: { id: string }) => a.id),
    [jo, sam],
    'board minutes --attendees by name',
  );
  t.equal(minutes.chairId, sam, '--chair-id by name');
  // £1,500.00 of the £2,500.00 to Jo (60 shares); within the £4,000.00 of profit.
  const declared = await acct('dividends', 'declare', '--director-id', 'Jo', '--board-minutes-id', minutes.id, '--amount', '1,500.00', '--date', '2026-05-01');
  t.equal(declared.directorId, jo, 'dividends declare --director-id');
  t.equal((await acct('dividends', 'list', '--director-id', 'Jo Bloggs')).length, 1, 'dividends list --director-id');

  t.equal((await acct('directors', 'resign', 'Sam Smith', '--resigned-date', '2026-06-01')).id, sam, 'directors resign');
  t.equal((await acct('directors', 'get', 'Sam')).id, sam, 'a resigned director, when no active one matches');
  t.equal((await acct('directors', 'get', jo)).id, jo, 'an id still works');
});

t.test('an ambiguous start lists the directors; an unknown name is 404; neither writes', async (t) => {
  const dir = t.testdir();
  await init(t, dir);
  await acctJson(t, dir, ['directors', 'add', '--full-name', 'Jo Bloggs', '--shares-held', '50']);
  await acctJson(t, dir, ['directors', 'add', '--full-name', 'Jo Smith', '--shares-held', '50']);
  const add = (who: string) =>
    runCliInProcess([
      '--data',
      dir,
      'dla',
      'add',
      '--director-id',
      who,
      '--date',
      '2026-04-10',
      '--description',
      'Car',
      '--amount',
      '100',
      '--loan-type',
      'loan_to_director',
    ]);

  const ambiguous = await add('jo');
  t.equal(ambiguous.status, 2, 'a usage error');
  t.match(ambiguous.stderr, /validation_error: "jo" matches 2 directors: Jo Bloggs \(dir_\w+\); Jo Smith \(dir_\w+\); give more of it, or the id/);
  t.match(ambiguous.stderr, /\(field --director-id\)/);

  const unknown = await add('Pat');
  t.equal(unknown.status, 3, 'not found');
  t.match(unknown.stderr, /not_found: no director "Pat"/);

  const help = await runCliInProcess(['dla', 'add', '--help']);
  t.match(help.stdout.replace(/\s+/g, ' '), /--director-id <name\|id> director id; dir_… id, or the director's full name, or its start; e\.g\. "Jo Bloggs"/);
  t.same(await acctJson(t, dir, ['dla', 'list', '--director-id', 'Jo Bloggs']), [], 'nothing was written');
});
