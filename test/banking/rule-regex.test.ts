/**
 * Regex rules run on RE2's linear-time engine: patterns that backtrack
 * catastrophically in JavaScript's engine (A{0,99} six times then C, and
 * .*.*.*X, on a 500-character line) answer the test endpoint and a bank
 * import with the right result, a nested quantifier is no longer refused
 * (it cannot backtrack any more), and what RE2 cannot run (lookarounds,
 * backreferences) is a 400 on value. No timings are asserted: on the old
 * engine these requests did not come back for minutes.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { newBooks, runCliInProcess, serveBooks } from '../helpers/index.js';
import { books } from '../cli/support.js';
import { expectError } from '../http/support.js';

const evil = 'A{0,99}A{0,99}A{0,99}A{0,99}A{0,99}A{0,99}C';

t.test('the test endpoint answers evil patterns on the longest line, with the right match', async (t) => {
  const api = await serveBooks(t, await newBooks(t, { clock: '2026-11-21T10:00:00Z' }));
  const accounts = (await api.request('GET', '/v1/accounts?flat=true')).body.data.accounts as { id: string; code: string }[];
  const id = (code: string) => accounts.find((a) => a.code === code)!.id;
  for (const [value, code] of [
    [evil, '5100'],
    ['.*.*.*X', '5200'],
    ['(A+)+$', '5300'], // once refused as catastrophic; harmless on RE2
  ] as const) {
    const r = await api.request('POST', '/v1/categorisation-rules', {
      body: { name: value, field: 'description', operator: 'regex', value, targetAccountId: id(code) },
    });
    t.equal(r.status, 201, `${value}: ${JSON.stringify(r.body.error ?? '')}`);
  }
  const test = async (description: string) => {
    const r = await api.request('POST', '/v1/categorisation-rules/test', { body: { description } });
    t.equal(r.status, 200, JSON.stringify(r.body.error ?? ''));
    return r.body.data;
  };
  // 499 A's then "!": no C, no X, and the last character not an A, so none of the three matches.
  t.match(await test(`${'A'.repeat(499)}!`), { kind: 'Unknown', reason: 'NoMatch' });
  // 60 A's then C: A{0,99} six times takes all 60 (up to 594), so the whole line matches.
  t.match(await test(`${'A'.repeat(60)}C`), { kind: 'Known', account: { code: '5100' }, evidence: { matchedValue: `${'A'.repeat(60)}C` } });
  // 498 A's, then " X": .*.*.*X matches all 500 characters, leftmost and greedy.
  t.match(await test(`${'A'.repeat(498)} X`), { kind: 'Known', account: { code: '5200' }, evidence: { matchedValue: `${'A'.repeat(498)} X` } });
  t.match(await test('A'.repeat(500)), { kind: 'Known', account: { code: '5300' }, evidence: { matchedValue: 'A'.repeat(500) } });

  for (const [value, message] of [
    ['TESCO(?= STORES)', /lookaheads and lookbehinds/],
    ['(?<!CARD )TESCO', /lookaheads and lookbehinds/],
    ['(TESCO)\\1', /backreferences/],
    ['(?<n>TESCO)\\k<n>', /backreferences/],
    ['(TESCO', /not a valid regular expression/],
  ] as const) {
    const r = await api.request('POST', '/v1/categorisation-rules', {
      body: { name: 'x', field: 'description', operator: 'regex', value, targetAccountId: id('5100') },
    });
    expectError(t, r, 400, 'validation_error', { field: 'value' });
    t.match(r.body.error.message, message, value);
  }
  t.equal((await api.request('GET', '/v1/categorisation-rules')).body.data.total, 9, '6 seeds + 3: the refusals added nothing');
});

t.test('acct bank import runs an evil regex rule over long rows', async (t) => {
  const { dir } = await books(t);
  const acct = (...args: string[]) => runCliInProcess(['--data', dir, ...args]);
  const rule = await acct(
    'categorisation-rules',
    'create',
    '--name',
    'Evil',
    '--field',
    'description',
    '--operator',
    'regex',
    '--value',
    evil,
    '--target-account-id',
    '5100',
  );
  t.equal(rule.status, 0, rule.stderr);
  // Two rows of 56 A's then C match the rule; one of 56 A's alone does not (and backtracked for minutes before).
  const file = path.join(dir, 'evil.csv');
  fs.writeFileSync(
    file,
    [
      'Date,Counter Party,Reference,Type,Amount (GBP),Balance (GBP),Spending Category,Notes',
      `02/03/2024,${'A'.repeat(56)}C,,CARD,-1.00,99.00,GENERAL,`,
      `03/03/2024,${'A'.repeat(56)},,CARD,-2.00,97.00,GENERAL,`,
      `04/03/2024,${'A'.repeat(55)}C,,CARD,-3.00,94.00,GENERAL,`,
    ].join('\n') + '\n',
  );
  const r = await acct('bank', 'import', file);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, 'Created 3 transactions (2 categorised by rules, 1 on suspense 9999)');
});
