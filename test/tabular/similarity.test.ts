import t from 'tap';
import { levenshtein, normaliseName, similarity } from '../../src/engine/tabular/similarity.js';

t.test('names normalise past case, punctuation, "&" and legal suffixes', async (t) => {
  t.equal(normaliseName('Acme Ltd'), 'acme');
  t.equal(normaliseName('ACME Limited'), 'acme');
  t.equal(normaliseName('  acme, ltd. '), 'acme');
  t.equal(normaliseName('Acme UK Ltd'), 'acme');
  t.equal(normaliseName('Smith & Sons'), 'smith and sons');
  t.equal(normaliseName('The Bakery'), 'bakery');
  t.equal(normaliseName("O'Brien's Café"), 'obriens cafe');
  t.equal(normaliseName('Limited'), 'limited', 'a name that is only a suffix stays');
});

t.test('Levenshtein distance and similarity', async (t) => {
  t.equal(levenshtein('kitten', 'sitting'), 3);
  t.equal(levenshtein('', 'abc'), 3);
  t.equal(levenshtein('same', 'same'), 0);
  // 'greenleaf florists' (18) against 'greenleaf florist' (17): one deletion; 100 × 17/18 = 94.4 → 94
  t.equal(similarity('greenleaf florists', 'greenleaf florist'), 94);
  // 'abcdefghij' against 'abcdefgxyz': three substitutions over 10: 70
  t.equal(similarity('abcdefghij', 'abcdefgxyz'), 70);
  t.equal(similarity('', ''), 100);
});
