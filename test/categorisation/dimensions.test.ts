/**
 * Each of the seven dimensions decides a case on its own: two rules equal on
 * every earlier dimension, differing on that one, and where possible with
 * every later dimension favouring the loser, so that only this one can
 * have decided. Vectors are [provenance, operator, field, pattern, fit,
 * priority, tie-break], worked by hand in the comments.
 */
import t from 'tap';
import { decide } from '../../src/engine/categorisation/decide.js';
import type { Decision } from '../../src/engine/categorisation/decision.js';
import { anyAccount, knownOf, rule } from './support.js';

const early = '2026-01-01T09:00:00.000Z';
const late = '2026-02-01T09:00:00.000Z';

/** The decided account, the rule given as evidence and its score vector. */
function known(decision: Decision): { accountId: string; ruleId: number; vector: readonly number[] } {
  const { accountId, evidence } = knownOf(decision);
  return { accountId, ruleId: evidence.rule.id, vector: evidence.scoreVector };
}

// "CARD PAYMENT TO TESCO STORES 4532" normalises to "TESCO STORES": 12 characters.
const tesco = { description: 'CARD PAYMENT TO TESCO STORES 4532' };

t.test('1 provenance: a local rule beats a global one on the same keyword', async (t) => {
  const local = rule({ id: 2, provenance: 'local', value: 'TESCO', targetAccountId: 'acc_local', createdAt: late });
  // The global rule is better on priority (999) and creation (earlier): provenance alone decides.
  const global = rule({ id: 1, provenance: 'global', value: 'TESCO', targetAccountId: 'acc_global', priority: 999, createdAt: early });
  const d = known(decide([global, local], tesco, anyAccount));
  t.equal(d.accountId, 'acc_local');
  // local 3, contains 3, description 2, "TESCO" 5, fit ⌊100 × 5/12⌋ = ⌊41.67⌋ = 41, priority 0, second created → -2
  t.same(d.vector, [3, 3, 2, 5, 41, 0, -2]);
});

t.test('1 provenance: verified (seed) beats global, and local beats verified', async (t) => {
  const verified = rule({ id: 1, provenance: 'verified', targetAccountId: 'acc_seed', createdAt: late });
  const global = rule({ id: 1, provenance: 'global', targetAccountId: 'acc_global', priority: 999, createdAt: early });
  t.equal(known(decide([verified, global], tesco, anyAccount)).accountId, 'acc_seed');
  const local = rule({ id: 9, provenance: 'local', targetAccountId: 'acc_local', createdAt: late });
  t.equal(known(decide([verified, local], tesco, anyAccount)).accountId, 'acc_local');
});

t.test('2 operator: equals beats contains on the same value', async (t) => {
  const equals = rule({ id: 2, operator: 'equals', value: 'TESCO STORES', targetAccountId: 'acc_equals', createdAt: late });
  const contains = rule({ id: 1, operator: 'contains', value: 'TESCO STORES', targetAccountId: 'acc_contains', priority: 500, createdAt: early });
  const d = known(decide([contains, equals], tesco, anyAccount));
  t.equal(d.accountId, 'acc_equals');
  // equals 5 vs contains 3; both cover all 12 characters (fit 100) with a 12-character value
  t.same(d.vector, [3, 5, 2, 12, 100, 0, -2]);
});

t.test('2 operator: starts_with beats contains; ends_with scores as starts_with', async (t) => {
  const starts = rule({ id: 2, operator: 'starts_with', value: 'TESCO', targetAccountId: 'acc_starts', createdAt: late });
  const contains = rule({ id: 1, operator: 'contains', value: 'TESCO', targetAccountId: 'acc_contains', priority: 500, createdAt: early });
  t.equal(known(decide([contains, starts], tesco, anyAccount)).accountId, 'acc_starts');
  // ends_with "TORES" and starts_with "TESCO": 4 each, 5 characters each, fit 41 each; so priority decides
  const ends = rule({ id: 3, operator: 'ends_with', value: 'TORES', targetAccountId: 'acc_ends', priority: 1, createdAt: late });
  const d = known(decide([starts, ends], tesco, anyAccount));
  t.equal(d.accountId, 'acc_ends');
  t.same(d.vector, [3, 4, 2, 5, 41, 1, -2]);
});

t.test('2 operator: a regex scores by its density of literal characters', async (t) => {
  // "TESCO.*RES": 8 literals in 10 characters → 3 × 8/10 = 2.4; "T.*S": 2 in 4 → 3 × 2/4 = 1.5
  const dense = rule({ id: 2, operator: 'regex', value: 'TESCO.*RES', targetAccountId: 'acc_dense', createdAt: late });
  const sparse = rule({ id: 1, operator: 'regex', value: 'T.*S', targetAccountId: 'acc_sparse', priority: 999, createdAt: early });
  const d = known(decide([sparse, dense], tesco, anyAccount));
  t.equal(d.accountId, 'acc_dense');
  // both match all of "TESCO STORES" (fit 100); pattern specificity of a regex is its literal count, 8
  t.same(d.vector, [3, 2.4, 2, 8, 100, 0, -2]);
  // A regex of no literals scores 0, below even an amount range (1).
  const anything = rule({ id: 3, operator: 'regex', value: '.*', targetAccountId: 'acc_any' });
  const range = rule({ id: 4, field: 'amount', operator: 'less_than', value: '0', targetAccountId: 'acc_out' });
  t.equal(known(decide([anything, range], { ...tesco, amount: -250 }, anyAccount)).accountId, 'acc_out');
});

t.test('3 field: a reference beats the description', async (t) => {
  const line = { ...tesco, reference: 'TESCO STORES' };
  const reference = rule({ id: 2, field: 'reference', value: 'TESCO', targetAccountId: 'acc_ref', createdAt: late });
  const description = rule({ id: 1, field: 'description', value: 'TESCO', targetAccountId: 'acc_desc', priority: 999, createdAt: early });
  const d = known(decide([description, reference], line, anyAccount));
  t.equal(d.accountId, 'acc_ref');
  // reference 4 vs description 2; both "TESCO" in a 12-character field: fit 41
  t.same(d.vector, [3, 3, 4, 5, 41, 0, -2]);
});

t.test('3 field: metadata (3) sits between contact name (4) and description (2); amount is weakest (1)', async (t) => {
  const line = { ...tesco, contactName: 'TESCO STORES', metadata: { category: 'TESCO STORES' }, amount: 1200 };
  const meta = rule({ id: 1, field: 'metadata.category', value: 'TESCO', targetAccountId: 'acc_meta', createdAt: late });
  const desc = rule({ id: 2, field: 'description', value: 'TESCO', targetAccountId: 'acc_desc', priority: 999, createdAt: early });
  t.equal(known(decide([meta, desc], line, anyAccount)).accountId, 'acc_meta');
  const contact = rule({ id: 3, field: 'contact_name', value: 'TESCO', targetAccountId: 'acc_contact', createdAt: late });
  t.equal(known(decide([meta, contact], line, anyAccount)).accountId, 'acc_contact');
  // An amount equals (5) outranks a description contains (3) on operator before field is reached, so compare like with like:
  const descEquals = rule({ id: 4, operator: 'equals', value: 'TESCO STORES', targetAccountId: 'acc_desc' });
  const amountEquals = rule({ id: 5, field: 'amount', operator: 'equals', value: '1200', targetAccountId: 'acc_amount', priority: 999 });
  t.equal(known(decide([amountEquals, descEquals], line, anyAccount)).accountId, 'acc_desc');
});

t.test('4 pattern: "BRITISH GAS" (11) beats "GAS" (3)', async (t) => {
  // "DD BRITISH GAS SERVICES 0811" normalises to "BRITISH GAS SERVICES": 20 characters
  const line = { description: 'DD BRITISH GAS SERVICES 0811' };
  const long = rule({ id: 2, value: 'BRITISH GAS', targetAccountId: 'acc_utilities', createdAt: late });
  const short = rule({ id: 1, value: 'GAS', targetAccountId: 'acc_other', priority: 999, createdAt: early });
  const d = known(decide([short, long], line, anyAccount));
  t.equal(d.accountId, 'acc_utilities');
  // fit ⌊100 × 11/20⌋ = 55 (the loser's would be ⌊100 × 3/20⌋ = 15)
  t.same(d.vector, [3, 3, 2, 11, 55, 0, -2]);
});

t.test('5 fit: the same keyword covering more of its field wins', async (t) => {
  // contact name "TESCO" (5 characters) vs reference "TESCO STORES" (12): contact_name 4 = reference 4, "TESCO" 5 each
  const line = { contactName: 'Tesco', reference: 'Tesco Stores' };
  const contact = rule({ id: 2, field: 'contact_name', value: 'TESCO', targetAccountId: 'acc_contact', createdAt: late });
  const reference = rule({ id: 1, field: 'reference', value: 'TESCO', targetAccountId: 'acc_ref', priority: 999, createdAt: early });
  const d = known(decide([reference, contact], line, anyAccount));
  t.equal(d.accountId, 'acc_contact');
  // fit 100 (5 of 5) vs ⌊100 × 5/12⌋ = 41
  t.same(d.vector, [3, 3, 4, 5, 100, 0, -2]);
});

t.test('6 priority: the user priority settles what the match leaves equal', async (t) => {
  // "TESCO" and "STORE" are both 5 characters in "TESCO STORES": fit 41 each
  const high = rule({ id: 2, value: 'STORE', targetAccountId: 'acc_high', priority: 10, createdAt: late });
  const low = rule({ id: 1, value: 'TESCO', targetAccountId: 'acc_low', priority: 0, createdAt: early });
  const d = known(decide([low, high], tesco, anyAccount));
  t.equal(d.accountId, 'acc_high');
  t.same(d.vector, [3, 3, 2, 5, 41, 10, -2]);
});

t.test('7 tie-break: of rules that agree, the earliest created is the evidence', async (t) => {
  const older = rule({ id: 9, value: 'STORE', name: 'older', createdAt: early });
  const newer = rule({ id: 1, value: 'TESCO', name: 'newer', createdAt: late });
  const d = known(decide([newer, older], tesco, anyAccount));
  t.equal(d.ruleId, 9, 'earlier createdAt wins over a lower id');
  t.same(d.vector, [3, 3, 2, 5, 41, 0, -1]);
  // Created together: the lowest id.
  const a = rule({ id: 7, value: 'STORE' });
  const b = rule({ id: 3, value: 'TESCO' });
  const same = known(decide([a, b], tesco, anyAccount));
  t.equal(same.ruleId, 3);
  t.same(same.vector, [3, 3, 2, 5, 41, 0, -1]);
});
