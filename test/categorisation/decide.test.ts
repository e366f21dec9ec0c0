import t from 'tap';
import { confidence } from '../../src/engine/categorisation/confidence.js';
import { decide, prepareRules } from '../../src/engine/categorisation/decide.js';
import { anyAccount, knownOf, rule } from './support.js';

t.test('the evidence of a decision, exactly', async (t) => {
  // "DIRECT DEBIT PAYMENT TO HMRC VAT 123456789" → prefix and reference number stripped → "HMRC VAT" (8 characters)
  const line = { description: 'DIRECT DEBIT PAYMENT TO HMRC VAT 123456789', amount: -184500 };
  const seed = rule({
    id: 1,
    name: 'HMRC VAT payments',
    provenance: 'verified',
    value: 'HMRC VAT',
    targetAccountId: 'acc_2202',
    createdAt: '2026-02-01T00:00:00.000Z',
  });
  const globalVat = rule({
    id: 1,
    name: 'HMRC VAT (global)',
    provenance: 'global',
    value: 'HMRC VAT',
    targetAccountId: 'acc_2202',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const globalHmrc = rule({
    id: 2,
    name: 'HMRC (global)',
    provenance: 'global',
    value: 'HMRC',
    targetAccountId: 'acc_2300',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const unrelated = rule({ id: 2, name: 'Tesco', provenance: 'local', value: 'TESCO', targetAccountId: 'acc_5990', createdAt: '2026-03-01T00:00:00.000Z' });
  const decision = decide([unrelated, globalHmrc, seed, globalVat], line, anyAccount);
  t.same(decision, {
    kind: 'Known',
    accountId: 'acc_2202',
    evidence: {
      // verified 2; contains 3; description 2; "HMRC VAT" 8 characters; fit 8 of 8 = 100; priority 0;
      // creation order: global 1 and global 2 (1 January, ids 1 and 2), the seed (1 February), the local rule (1 March): the seed is 3rd → -3
      scoreVector: [2, 3, 2, 8, 100, 0, -3],
      matchedField: 'description',
      matchedValue: 'HMRC VAT',
      fieldValue: 'HMRC VAT',
      operator: 'contains',
      provenance: 'verified',
      rule: { id: 1, name: 'HMRC VAT payments' },
      // both global rules match; "HMRC VAT" names the same account, "HMRC" another
      socialProof: { globalRulesMatching: 2, globalRulesAgreeing: 1 },
      // verified weight 90% × (3/5 + 100/100) / 2 = 0.9 × 0.8 = 0.72
      confidence: 0.72,
    },
  });
});

t.test('a global winner does not count as its own social proof', async (t) => {
  const vat = rule({ id: 1, provenance: 'global', value: 'HMRC VAT', targetAccountId: 'acc_2202' });
  const evidence = knownOf(decide([vat], { description: 'HMRC VAT' }, anyAccount)).evidence;
  t.same(evidence.socialProof, { globalRulesMatching: 0, globalRulesAgreeing: 0 });
  // global weight 80% × (3/5 + 100/100) / 2 = 0.8 × 0.8 = 0.64
  t.equal(evidence.confidence, 0.64);
});

t.test('amount rules compare signed whole pence: positive money in, negative money out', async (t) => {
  const rent = rule({ id: 1, field: 'amount', operator: 'equals', value: '-125000', targetAccountId: 'acc_5200' });
  const big = rule({ id: 2, field: 'amount', operator: 'greater_than', value: '100000', targetAccountId: 'acc_4000' });
  const out = knownOf(decide([rent, big], { amount: -125000 }, anyAccount));
  // local 3; equals 5; amount 1; "-125000" is 7 characters; equals fits 100; priority 0; first created → -1
  t.same(out.evidence.scoreVector, [3, 5, 1, 7, 100, 0, -1]);
  t.equal(out.evidence.matchedValue, '-125000');
  const income = knownOf(decide([rent, big], { amount: 250000 }, anyAccount));
  // greater_than 1; "100000" is 6 characters; a range covers no part of the input: fit 0; second created → -2
  t.same(income.evidence.scoreVector, [3, 1, 1, 6, 0, 0, -2]);
  t.equal(income.accountId, 'acc_4000');
  t.equal(decide([rent], { amount: 125000 }, anyAccount).kind, 'Unknown', '£1,250.00 in is not the rent out');
  t.equal(decide([big], { amount: 100000 }, anyAccount).kind, 'Unknown', 'greater_than is strict');
});

t.test('NoMatch: rules read the line and none fits', async (t) => {
  t.same(decide([rule({ value: 'TESCO' }), rule({ id: 2, value: 'ASDA' })], { description: 'SHELL FOREST HILL' }, anyAccount), {
    kind: 'Unknown',
    reason: 'NoMatch',
    rulesConsidered: 2,
  });
  t.same(decide([], { description: 'SHELL' }, anyAccount), { kind: 'Unknown', reason: 'NoMatch', rulesConsidered: 0 }, 'no rules at all');
});

t.test('MissingField: every active rule needs a field the line lacks', async (t) => {
  const byReference = rule({ id: 1, field: 'reference', value: 'INV' });
  const byProject = rule({ id: 2, field: 'metadata.project', value: 'APOLLO' });
  const byAmount = rule({ id: 3, field: 'amount', operator: 'less_than', value: '0' });
  t.same(decide([byReference, byProject, byAmount], { description: 'TESCO STORES', reference: '   ' }, anyAccount), {
    kind: 'Unknown',
    reason: 'MissingField',
    fields: ['reference', 'metadata.project', 'amount'],
  });
  // One rule could read the line (its description) and did not match: that is NoMatch.
  t.same(decide([byReference, rule({ id: 4, value: 'ASDA' })], { description: 'TESCO STORES' }, anyAccount), {
    kind: 'Unknown',
    reason: 'NoMatch',
    rulesConsidered: 1,
  });
});

t.test('AmbiguousTopScore: the best rules tie and name different accounts', async (t) => {
  // "TESCO" and "STORE": both local contains on the description, 5 characters, fit ⌊100 × 5/12⌋ = 41, priority 0
  const a = rule({ id: 1, name: 'groceries', value: 'TESCO', targetAccountId: 'acc_5990', createdAt: '2026-01-01T00:00:00.000Z' });
  const b = rule({ id: 2, name: 'stores', value: 'STORE', targetAccountId: 'acc_5100', createdAt: '2026-01-02T00:00:00.000Z' });
  const weaker = rule({ id: 3, name: 'weak', value: 'TES', targetAccountId: 'acc_5990' });
  t.same(decide([a, b, weaker], { description: 'TESCO STORES 4532' }, anyAccount), {
    kind: 'Unknown',
    reason: 'AmbiguousTopScore',
    contenders: [
      // weaker was created with a (same createdAt, id 3 after id 1): places 1 a, 2 weaker, 3 b
      { rule: { id: 1, name: 'groceries' }, accountId: 'acc_5990', provenance: 'local', scoreVector: [3, 3, 2, 5, 41, 0, -1] },
      { rule: { id: 2, name: 'stores' }, accountId: 'acc_5100', provenance: 'local', scoreVector: [3, 3, 2, 5, 41, 0, -3] },
    ],
  });
  // A priority on one of them settles it.
  const settled = decide([a, rule({ ...b, priority: 1 })], { description: 'TESCO STORES 4532' }, anyAccount);
  t.equal(knownOf(settled).accountId, 'acc_5100');
});

t.test('InvalidRule: the winner names an account that cannot be posted to, and no weaker rule takes over', async (t) => {
  const archived = rule({ id: 1, name: 'old tesco', value: 'TESCO STORES', targetAccountId: 'acc_archived' });
  const fallback = rule({ id: 2, value: 'TESCO', targetAccountId: 'acc_5990' });
  const usable = (id: string): boolean => id !== 'acc_archived';
  t.same(decide([archived, fallback], { description: 'TESCO STORES' }, usable), {
    kind: 'Unknown',
    reason: 'InvalidRule',
    rule: { id: 1, name: 'old tesco' },
    targetAccountId: 'acc_archived',
    // contains 3, "TESCO STORES" 12 characters, all of the 12-character line: fit 100
    scoreVector: [3, 3, 2, 12, 100, 0, -1],
  });
});

t.test('inactive rules never match', async (t) => {
  const off = rule({ id: 1, value: 'TESCO STORES', targetAccountId: 'acc_off', active: false });
  const on = rule({ id: 2, value: 'TESCO', targetAccountId: 'acc_on' });
  const d = knownOf(decide([off, on], { description: 'TESCO STORES' }, anyAccount));
  t.equal(d.accountId, 'acc_on');
  t.equal(d.evidence.scoreVector[6], -1, 'an inactive rule takes no place in creation order');
  t.same(decide([off], { description: 'TESCO STORES' }, anyAccount), { kind: 'Unknown', reason: 'NoMatch', rulesConsidered: 0 });
});

t.test('matching is case-insensitive and sees the normalised line', async (t) => {
  const regex = rule({ operator: 'regex', value: '^tesco s', targetAccountId: 'acc_5990' });
  const d = knownOf(decide([regex], { description: 'card payment to Tesco Stores 4532' }, anyAccount));
  t.equal(d.evidence.matchedValue, 'TESCO S');
  t.equal(d.evidence.fieldValue, 'TESCO STORES');
  const contact = rule({ field: 'contact_name', operator: 'equals', value: 'ACME LTD', targetAccountId: 'acc_4000' });
  t.equal(knownOf(decide([contact], { contactName: ' acme  ltd ' }, anyAccount)).accountId, 'acc_4000');
});

t.test('a stored rule that cannot run never matches instead of failing the decision', async (t) => {
  const broken = [
    rule({ id: 1, operator: 'regex', value: '(?=a)', targetAccountId: 'acc_bad' }),
    rule({ id: 2, operator: 'greater_than', value: '5', targetAccountId: 'acc_bad' }),
    rule({ id: 3, field: 'amount', operator: 'equals', value: '4.50', targetAccountId: 'acc_bad' }),
  ];
  t.same(decide(broken, { description: 'AAAA', amount: 450 }, anyAccount), { kind: 'Unknown', reason: 'NoMatch', rulesConsidered: 0 });
});

t.test('prepared rules decide as the plain list does, for many lines', async (t) => {
  const rules = [rule({ id: 1, value: 'TESCO', targetAccountId: 'acc_5990' }), rule({ id: 2, value: 'BRITISH GAS', targetAccountId: 'acc_5300' })];
  const prepared = prepareRules(rules);
  for (const description of ['TESCO STORES 4532', 'DD BRITISH GAS 0811', 'SHELL']) {
    t.same(decide(prepared, { description }, anyAccount), decide(rules, { description }, anyAccount), description);
  }
});

t.test('confidence from the vector: provenance weight × mean of operator/5 and fit/100', async (t) => {
  t.equal(confidence([3, 5, 2, 12, 100, 0, -1]), 1, 'local equals: 1 × (1 + 1)/2');
  t.equal(confidence([3, 3, 2, 5, 41, 0, -1]), 0.51, 'local contains, fit 41: (0.6 + 0.41)/2 = 0.505 → 0.51');
  t.equal(confidence([2, 3, 2, 8, 100, 0, -1]), 0.72, 'verified contains, fit 100: 0.9 × (0.6 + 1)/2 = 0.72');
  t.equal(confidence([1, 4, 2, 5, 50, 0, -1]), 0.52, 'global starts_with, fit 50: 0.8 × (0.8 + 0.5)/2 = 0.52');
  t.equal(confidence([3, 2.4, 2, 8, 100, 0, -1]), 0.74, 'local regex 2.4, fit 100: (0.48 + 1)/2 = 0.74');
  t.equal(confidence([3, 1, 1, 6, 0, 0, -1]), 0.1, 'local amount range: (0.2 + 0)/2 = 0.1');
});
