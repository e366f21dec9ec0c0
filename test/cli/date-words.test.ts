/**
 * Dates as people write them: the period words worked by hand for a fixed
 * today, and through the commander program: --from 2026-Q3 covers the
 * quarter, fy2025 the financial year that begins in 2025, --as-of
 * last-quarter its last day, a day-first date gets the date it means, an
 * impossible one is "not a real date", and a report with no dates covers
 * the financial year to date. Refusals write nothing.
 */
import t from 'tap';
import { checkDateText, periodOf } from '../../src/engine/date-words.js';
import { AppError } from '../../src/engine/errors.js';
import { runCliInProcess } from '../helpers/index.js';
import { acctJson, books } from './support.js';

t.test('period words for today 2026-11-24, a financial year from 04-01', async (t) => {
  const at = (word: string) => periodOf(word, '2026-11-24', '04-01');
  t.same(at('2026-11'), { startDate: '2026-11-01', endDate: '2026-11-30' });
  t.same(at('2024-02'), { startDate: '2024-02-01', endDate: '2024-02-29' }, '2024 is a leap year');
  t.same(at('2026-Q3'), { startDate: '2026-07-01', endDate: '2026-09-30' });
  t.same(at('2026-q4'), { startDate: '2026-10-01', endDate: '2026-12-31' });
  t.same(at('2025'), { startDate: '2025-01-01', endDate: '2025-12-31' });
  t.same(at('fy2025'), { startDate: '2025-04-01', endDate: '2026-03-31' }, 'the year that begins in 2025');
  t.same(at('today'), { startDate: '2026-11-24', endDate: '2026-11-24' });
  t.same(at('yesterday'), { startDate: '2026-11-23', endDate: '2026-11-23' });
  t.same(at('this-month'), { startDate: '2026-11-01', endDate: '2026-11-30' });
  t.same(at('last-month'), { startDate: '2026-10-01', endDate: '2026-10-31' });
  t.same(at('this-quarter'), { startDate: '2026-10-01', endDate: '2026-12-31' }, 'November is in Q4');
  t.same(at('last-quarter'), { startDate: '2026-07-01', endDate: '2026-09-30' });
  t.same(at('this-year'), { startDate: '2026-01-01', endDate: '2026-12-31' });
  t.same(at('last-year'), { startDate: '2025-01-01', endDate: '2025-12-31' });
  t.same(at('this-fy'), { startDate: '2026-04-01', endDate: '2027-03-31' });
  t.same(at('last-fy'), { startDate: '2025-04-01', endDate: '2026-03-31' });
  // January: last month and last quarter are in the year before.
  t.same(periodOf('last-month', '2026-01-15', '04-06'), { startDate: '2025-12-01', endDate: '2025-12-31' });
  t.same(periodOf('last-quarter', '2026-01-15', '04-06'), { startDate: '2025-10-01', endDate: '2025-12-31' });
  // A sole trader's year from 6 April: on 5 April 2026 the year is still 2025/26.
  t.same(periodOf('this-fy', '2026-04-05', '04-06'), { startDate: '2025-04-06', endDate: '2026-04-05' });
  t.equal(at('2026-13'), null, 'not a month: left for the date check');
  t.equal(at('2026-11-24'), null, 'a date is not a period word');
});

t.test('dates written another way are refused with a hint', async (t) => {
  const refused = (text: string): string => {
    try {
      checkDateText(text, '--from');
    } catch (e) {
      t.equal((e as AppError).field, '--from');
      return (e as AppError).message;
    }
    return 'passed';
  };
  t.equal(refused('31/03/2026'), 'write dates as YYYY-MM-DD: 31/03/2026 is 2026-03-31 if it is day first, as in the UK');
  t.equal(refused('5.4.2026'), 'write dates as YYYY-MM-DD: 5.4.2026 is 2026-04-05 if it is day first, as in the UK');
  t.equal(refused('2026-02-30'), '2026-02-30 is not a real date: February 2026 has 28 days');
  t.equal(refused('2024-02-30'), '2024-02-30 is not a real date: February 2024 has 29 days');
  t.equal(refused('2026-04-31'), '2026-04-31 is not a real date: April 2026 has 30 days');
  t.equal(refused('2026-13-01'), '2026-13-01 is not a real date: there is no month 13');
  t.equal(refused('2026-02-28'), 'passed');
  // Anything else was left to the schema, whose "must be a date in YYYY-MM-DD format" hid that periods are taken: now it lists them.
  t.match(refused('next tuesday'), /^--from takes YYYY-MM-DD, or a period: YYYY-MM \(2026-11\), YYYY-Qn \(2026-Q3\).*this-\/last-quarter.*; not next tuesday$/);
});

t.test('a period nearly right says what is wrong with it', async (t) => {
  const refused = (text: string, accepts?: string): string => {
    try {
      checkDateText(text, '--from', accepts);
    } catch (e) {
      t.equal((e as AppError).field, '--from');
      return (e as AppError).message;
    }
    return 'passed';
  };
  t.equal(refused('2026-Q5'), '2026-Q5 is not a quarter: quarters are Q1–Q4');
  t.equal(refused('2026-Q0'), '2026-Q0 is not a quarter: quarters are Q1–Q4');
  t.equal(refused('2026Q3'), 'write a quarter as 2026-Q3');
  t.equal(refused('2026-13'), '2026-13 is not a month: months are 01–12');
  t.equal(refused('2026-3'), 'write a month with two digits: 2026-03');
  t.equal(refused('fy26'), 'write the year in full: fy2026 (the financial year that begins in 2026)');
  t.match(refused('fy2025/26'), /^fy2025\/26 is not a financial year: write fyYYYY/);
  t.match(refused('last-week'), /^--from takes YYYY-MM-DD, or a period: .*; not last-week$/);
  t.equal(refused('2026-Q3', 'YYYY-MM-DD'), '--from takes YYYY-MM-DD; not 2026-Q3', 'a flag that takes no periods says so');
});

t.test('through the commander program', async (t) => {
  const { dir } = await books(t); // a limited company: its financial year starts 04-01
  const pl = await acctJson(t, dir, ['report', 'profit-loss', '--from', '2026-Q3']);
  t.same(pl.period, { from: '2026-07-01', to: '2026-09-30' }, '--from 2026-Q3 alone covers the quarter');
  t.same((await acctJson(t, dir, ['report', 'profit-loss', '--from', 'fy2025'])).period, { from: '2025-04-01', to: '2026-03-31' });
  t.same((await acctJson(t, dir, ['report', 'profit-loss', '--from', '2026-01', '--to', '2026-Q1'])).period, { from: '2026-01-01', to: '2026-03-31' });
  t.equal((await acctJson(t, dir, ['report', 'balance-sheet', '--as-of', '2025-12'])).asOf, '2025-12-31', 'an as-of period gives its last day');
  t.match(await acctJson(t, dir, ['transactions', 'list', '--from', '2026-11']), [], 'a list range takes the words too');

  // No dates: the financial year to date, worked out here from the London date.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const yearStart = today.slice(5) >= '04-01' ? `${today.slice(0, 4)}-04-01` : `${Number(today.slice(0, 4)) - 1}-04-01`;
  t.same((await acctJson(t, dir, ['report', 'profit-loss'])).period, { from: yearStart, to: today }, 'P&L without dates: the year to date');
  t.equal((await acctJson(t, dir, ['report', 'balance-sheet'])).asOf, today, 'balance sheet without a date: today');
  t.same(
    (await acctJson(t, dir, ['report', 'general-ledger', '--from', '2026-01-15'])).period,
    { from: '2026-01-15', to: today },
    'a first day alone: up to today',
  );
  // 2025-12-31 falls in the year that began on 2025-04-01.
  t.same(
    (await acctJson(t, dir, ['report', 'vat', '--to', '2025-12-31'])).period,
    { from: '2025-04-01', to: '2025-12-31' },
    'a last day alone: from its year start',
  );

  const dayFirst = await runCliInProcess(['--data', dir, 'report', 'profit-loss', '--from', '31/03/2026', '--to', '2026-04-30']);
  t.equal(dayFirst.status, 2);
  t.equal(dayFirst.stderr, 'error validation_error: write dates as YYYY-MM-DD: 31/03/2026 is 2026-03-31 if it is day first, as in the UK (field --from)\n');
  const unreal = await runCliInProcess(['--data', dir, 'invoices', 'list', '--to-date', '2026-02-30']);
  t.equal(unreal.stderr, 'error validation_error: 2026-02-30 is not a real date: February 2026 has 28 days (field --to-date)\n');
  // These said "--from must be a date in YYYY-MM-DD format", hiding that periods are taken.
  const hints: [string, RegExp][] = [
    ['2026-Q5', /^error validation_error: 2026-Q5 is not a quarter: quarters are Q1–Q4 \(field --from\)\n$/],
    ['2026-13', /^error validation_error: 2026-13 is not a month: months are 01–12 \(field --from\)\n$/],
    ['fy26', /^error validation_error: write the year in full: fy2026 .*\(field --from\)\n$/],
    ['last-week', /^error validation_error: --from takes YYYY-MM-DD, or a period: .*this-\/last-month.*; not last-week \(field --from\)\n$/],
  ];
  for (const [from, message] of hints) {
    const r = await runCliInProcess(['--data', dir, 'report', 'profit-loss', '--from', from]);
    t.equal(r.status, 2, from);
    t.match(r.stderr, message, from);
  }
  const oneDayFlag = await runCliInProcess(['--data', dir, 'invoices', 'list', '--to-date', 'next-week']);
  t.equal(oneDayFlag.status, 2);
  t.match(oneDayFlag.stderr, /--to-date takes .*; not next-week \(field --to-date\)/);
  const before = await acctJson(t, dir, ['transactions', 'list']);
  const onDay = await runCliInProcess(['--data', dir, 'contacts', 'create', '--contact-type', 'customer', '--name', 'Jo']);
  t.equal(onDay.status, 0);
  const refusedDay = await runCliInProcess([
    '--data',
    dir,
    'invoices',
    'create',
    '--contact-id',
    'Jo',
    '--issue-date',
    'this-month',
    '--item',
    'Work;1;10.00;standard',
  ]);
  t.equal(refusedDay.status, 2);
  t.match(refusedDay.stderr, /this-month is a period: --issue-date takes one day/);
  t.same(await acctJson(t, dir, ['transactions', 'list']), before, 'nothing written');
});

t.test('the hand-written commands take dates as the generated ones do: acct post and bank reconcile --as-of', async (t) => {
  const { dir } = await books(t);
  const before = await acctJson(t, dir, ['transactions', 'list']);
  const post = await runCliInProcess(['--data', dir, 'post', '31/03/2026', 'Stationery', '5100=12.00', '1200=-12.00']);
  t.equal(post.status, 2);
  t.equal(post.stderr, 'error validation_error: write dates as YYYY-MM-DD: 31/03/2026 is 2026-03-31 if it is day first, as in the UK (field <date>)\n');
  const unreal = await runCliInProcess(['--data', dir, 'post', '2026-02-30', 'Stationery', '5100=12.00', '1200=-12.00']);
  t.equal(unreal.stderr, 'error validation_error: 2026-02-30 is not a real date: February 2026 has 28 days (field <date>)\n');
  const reconcile = await runCliInProcess(['--data', dir, 'bank', 'reconcile', '1200', '--statement-balance', '0', '--as-of', '31/03/2026']);
  t.equal(reconcile.status, 2);
  t.equal(reconcile.stderr, 'error validation_error: write dates as YYYY-MM-DD: 31/03/2026 is 2026-03-31 if it is day first, as in the UK (field --as-of)\n');
  const garbled = await runCliInProcess(['--data', dir, 'bank', 'reconcile', '1200', '--statement-balance', '0', '--as-of', 'March']);
  t.equal(garbled.status, 2);
  t.match(garbled.stderr, /\(field --as-of\)\n$/, 'a date that is no date at all names the flag too');
  t.same(await acctJson(t, dir, ['transactions', 'list']), before, 'nothing written');
});
