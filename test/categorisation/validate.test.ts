import t from 'tap';
import { analyseRegex, compileRuleRegex } from '../../src/engine/categorisation/regex-safety.js';
import { validateRule, type RuleDraft } from '../../src/engine/categorisation/validate.js';

const draft = (over: Partial<RuleDraft>): RuleDraft => ({ name: 'Tesco', field: 'description', operator: 'contains', value: 'TESCO', ...over });

t.test('a valid rule comes back normalised with its defaults', async (t) => {
  t.same(validateRule(draft({ name: '  Tesco  ', value: 'CARD PAYMENT TO TESCO STORES 4532' })), {
    name: 'Tesco',
    field: 'description',
    operator: 'contains',
    value: 'TESCO STORES',
    priority: 0,
    active: true,
  });
  t.equal(validateRule(draft({ field: 'contact_name', value: ' tesco  stores ltd ' })).value, 'TESCO STORES LTD', 'other text: upper case, single spaces');
  t.equal(validateRule(draft({ field: 'reference', value: 'inv 4532' })).value, 'INV 4532', 'a reference keeps its digits');
  t.equal(validateRule(draft({ field: 'metadata.project', operator: 'equals', value: 'apollo' })).value, 'APOLLO');
  t.equal(validateRule(draft({ operator: 'regex', value: 'tesco.*ltd' })).value, 'tesco.*ltd', 'a regex is kept as written');
  t.equal(validateRule(draft({ field: 'amount', operator: 'equals', value: '-04500' })).value, '-4500', 'whole pence, signed');
  t.equal(validateRule(draft({ field: 'amount', operator: 'greater_than', value: '-0' })).value, '0');
  t.equal(validateRule(draft({ priority: 999, active: false })).priority, 999);
  t.equal(validateRule(draft({ name: 'n'.repeat(100), value: 'A'.repeat(500) })).value.length, 500, 'the longest name and value');
});

t.test('each refusal is a validation_error naming the field', async (t) => {
  const refusals: [Partial<RuleDraft>, string][] = [
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'n'.repeat(101) }, 'name'],
    [{ field: 'memo' }, 'field'],
    [{ field: 'metadata.colour' }, 'field'],
    [{ operator: 'like' }, 'operator'],
    [{ field: 'amount', operator: 'contains', value: '4500' }, 'operator'],
    [{ field: 'amount', operator: 'regex', value: '45' }, 'operator'],
    [{ field: 'description', operator: 'greater_than', value: '4500' }, 'operator'],
    [{ field: 'reference', operator: 'less_than', value: '4500' }, 'operator'],
    [{ value: '' }, 'value'],
    [{ value: '   ' }, 'value'],
    [{ value: 'A'.repeat(501) }, 'value'],
    [{ field: 'amount', operator: 'equals', value: '45.00' }, 'value'],
    [{ field: 'amount', operator: 'equals', value: '£45' }, 'value'],
    [{ field: 'amount', operator: 'equals', value: '1e3' }, 'value'],
    [{ field: 'amount', operator: 'equals', value: '99999999999999999999' }, 'value'],
    [{ operator: 'regex', value: '(' }, 'value'],
    [{ operator: 'regex', value: 'TESCO(?= STORES)' }, 'value'],
    [{ operator: 'regex', value: '(?<!CARD )TESCO' }, 'value'],
    [{ operator: 'regex', value: '(TESCO)\\1' }, 'value'],
    [{ operator: 'regex', value: '.{0,1000}.{0,1000}X' }, 'value'],
    [{ operator: 'regex', value: 'A'.repeat(201) }, 'value'],
    [{ priority: -1 }, 'priority'],
    [{ priority: 1000 }, 'priority'],
    [{ priority: 1.5 }, 'priority'],
  ];
  for (const [over, field] of refusals) {
    t.throws(() => validateRule(draft(over)), { name: 'AppError', code: 'validation_error', field }, JSON.stringify(over));
  }
});

t.test('refusals say what is wrong', async (t) => {
  t.throws(() => validateRule(draft({ field: 'amount', operator: 'contains', value: '1' })), {
    message: 'operator contains does not apply to field amount; use one of equals, greater_than, less_than',
  });
  t.throws(() => validateRule(draft({ field: 'amount', operator: 'equals', value: '45.00' })), {
    message: "an amount rule's value is whole pence, such as 4500 for £45.00 (negative for money out), not 45.00",
  });
  t.throws(() => validateRule(draft({ operator: 'regex', value: 'TESCO(?! STORES)' })), { message: /lookaheads and lookbehinds .* not supported/ });
  t.throws(() => validateRule(draft({ operator: 'regex', value: '(TESCO)\\1' })), { message: /backreferences .* not supported/ });
  t.throws(() => validateRule(draft({ operator: 'regex', value: '.{0,1000}.{0,1000}X' })), { message: /4003 steps, at most 2000/ });
});

t.test('safe regular expressions pass, and their literal characters are counted', async (t) => {
  const shapes: [string, number][] = [
    ['TESCO.*LTD', 8],
    ['.*', 0],
    ['^TESCO\\s+\\d{4}$', 5],
    ['TESCO (STORES)?', 6], // the optional group counts nothing
    ['(LTD|LIMITED)', 3], // of alternatives, the fewest
    ['A\\.B', 3], // an escaped dot is a literal; \s, \d are not
    ['[A-Z]+ STORES', 7],
    ['(\\d{4})+', 0], // an exact count inside a repeat has one way to match
    ['\\x41BC', 3],
  ];
  for (const [pattern, literals] of shapes) {
    t.same(analyseRegex(pattern), { literals }, pattern);
    t.type(compileRuleRegex(pattern), 'object', `${pattern} compiles`);
  }
});

t.test('shapes that backtrack in JavaScript run on RE2 and match as JavaScript would', async (t) => {
  // JavaScript's engine takes time doubling with each extra "A" on these; RE2's is linear.
  const line = `${'A'.repeat(499)}!`;
  const backtrackers: [string, string | undefined][] = [
    ['(A+)+$', undefined],
    ['(A|AA)+$', undefined],
    ['(A*)*$', ''], // the empty match at the end, after the "!"
    ['.*.*.*.*X', undefined],
    ['(a?){20}a{20}', 'A'.repeat(40)], // case-insensitive: twenty optional a's then twenty more, greedy
  ];
  for (const [pattern, matched] of backtrackers) {
    const regex = compileRuleRegex(pattern);
    t.equal(typeof regex === 'string' ? regex : regex.exec(line), matched, `${pattern} on 499 A's and a !`);
  }
  const cases: [string, string, string | undefined][] = [
    ['^tesco s', 'TESCO STORES', 'TESCO S'], // case-insensitive
    ['T.*S', 'TESCO STORES', 'TESCO STORES'], // greedy
    ['T.*?S', 'TESCO STORES', 'TES'], // lazy
    ['(LTD|LIMITED)', 'ACME LIMITED', 'LIMITED'],
    ['\\u0041CME', 'ACME LTD', 'ACME'], // a JavaScript escape, translated
    ['\\bGAS\\b', 'BRITISH GAS', 'GAS'],
    ['\\d{4}$', 'TESCO 4532', '4532'],
    ['^GAS', 'BRITISH GAS', undefined],
  ];
  for (const [pattern, text, matched] of cases) {
    const regex = compileRuleRegex(pattern);
    t.equal(typeof regex === 'string' ? regex : regex.exec(text), matched, `${pattern} on ${text}`);
    t.equal(new RegExp(pattern, 'i').exec(text)?.[0], matched, `JavaScript agrees on ${pattern}`);
  }
});
