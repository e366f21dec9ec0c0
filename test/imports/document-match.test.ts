import t from 'tap';
import fc from 'fast-check';
import { createKey, fuzzyThreshold, matchContacts, type ContactCandidate } from '../../src/engine/imports/documents/match-contacts.js';
import { levenshtein, normaliseName } from '../../src/engine/tabular/similarity.js';

const books: readonly ContactCandidate[] = [
  { id: 'con_acme', name: 'Acme Ltd' },
  { id: 'con_green', name: 'Greenfield Carpentry Ltd' },
  { id: 'con_build', name: 'Greenfield Builders' },
  { id: 'con_john', name: 'John Smith Plumbing' },
  { id: 'con_jan', name: 'Jan Smith Plumbing' },
];

t.test('the same normalised name is a match at 100', async (t) => {
  const matches = matchContacts(['ACME Limited', 'acme, ltd.'], books);
  t.same(matches.get('ACME Limited'), {
    contactId: 'con_acme',
    contactName: 'Acme Ltd',
    outcome: 'match',
    confidence: 100,
    reason: 'same name as the contact Acme Ltd',
  });
  t.equal(matches.get('acme, ltd.')?.contactId, 'con_acme');
});

t.test('85% alike is a fuzzy match; 84% creates a contact', async (t) => {
  t.equal(fuzzyThreshold, 85);
  // 'greenfeild carpentri' against 'greenfield carpentry' (both 20 characters): 'ie' for 'ei' is two
  // substitutions, 'i' for 'y' a third; distance 3; 100 × (20 − 3) ÷ 20 = 85
  t.equal(levenshtein('greenfeild carpentri', normaliseName('Greenfield Carpentry Ltd')), 3);
  // 'greenfeild buildors' against 'greenfield builders' (both 19): 'ie' for 'ei' two, 'o' for 'e' one;
  // distance 3; 100 × (19 − 3) ÷ 19 = 84.2, rounded down to 84
  t.equal(levenshtein('greenfeild buildors', normaliseName('Greenfield Builders')), 3);
  const matches = matchContacts(['Greenfeild Carpentri', 'Greenfeild Buildors'], books);
  t.same(matches.get('Greenfeild Carpentri'), {
    contactId: 'con_green',
    contactName: 'Greenfield Carpentry Ltd',
    outcome: 'fuzzy',
    confidence: 85,
    reason: '85% alike to the contact Greenfield Carpentry Ltd',
  });
  t.same(matches.get('Greenfeild Buildors'), {
    contactId: null,
    contactName: 'Greenfeild Buildors',
    outcome: 'create',
    confidence: 84,
    reason: 'the closest contact, Greenfield Builders, is only 84% alike (85% needed): a new contact Greenfeild Buildors is created on confirm',
  });
});

t.test('two contacts equally close: a new contact rather than a guess', async (t) => {
  // 'jon smith plumbing' (18) against 'john smith plumbing' (19): one insertion; 100 × 18 ÷ 19 = 94.7 → 94;
  // against 'jan smith plumbing' (18): one substitution; 100 × 17 ÷ 18 = 94.4 → 94: a tie at 94
  const match = matchContacts(['Jon Smith Plumbing'], books).get('Jon Smith Plumbing');
  t.same(match, {
    contactId: null,
    contactName: 'Jon Smith Plumbing',
    outcome: 'create',
    confidence: 94,
    reason: 'John Smith Plumbing and Jan Smith Plumbing are equally close (94%), so neither is guessed: a new contact Jon Smith Plumbing is created on confirm',
  });
});

t.test('contacts in the books that normalise alike are two: a new contact rather than a guess', async (t) => {
  // Was: the earlier (con_1) matched at 100, silently; two customers may share a name (two Jane Smiths).
  const twins = [
    { id: 'con_1', name: 'Zeta Ltd' },
    { id: 'con_2', name: 'ZETA Limited' },
  ];
  t.same(matchContacts(['Zeta'], twins).get('Zeta'), {
    contactId: null,
    contactName: 'Zeta',
    outcome: 'create',
    confidence: 100,
    reason: 'Zeta Ltd (con_1) and ZETA Limited (con_2) have this name, so neither is guessed: a new contact Zeta is created on confirm',
  });
  // 'zetta' against 'zeta': one deletion over 5: 100 × 4 ÷ 5 = 80, below 85
  t.same(
    matchContacts(['Zetta'], twins).get('Zetta')?.reason,
    'the closest contact, Zeta Ltd, is only 80% alike (85% needed): a new contact Zetta is created on confirm',
  );
  // 'jane smyth design' against 'jane smith design' (17 each): one substitution, 100 × 16 ÷ 17 = 94.1 → 94, for both twins: a tie
  const janes = [
    { id: 'con_3', name: 'Jane Smith Design' },
    { id: 'con_4', name: 'Jane Smith Design Ltd' },
  ];
  t.same(
    matchContacts(['Jane Smyth Design'], janes).get('Jane Smyth Design')?.reason,
    'Jane Smith Design and Jane Smith Design Ltd are equally close (94%), so neither is guessed: a new contact Jane Smyth Design is created on confirm',
  );
});

t.test('names of the file that normalise alike create one contact, under the first spelling', async (t) => {
  const names = ['Nova Bakery Ltd', 'NOVA BAKERY LIMITED', 'Nova Bakery Ltd'];
  const matches = matchContacts(names, books);
  t.equal(matches.size, 2, 'keyed by the name as the file spells it');
  t.equal(createKey('Nova Bakery Ltd'), createKey('NOVA BAKERY LIMITED'));
  for (const name of ['Nova Bakery Ltd', 'NOVA BAKERY LIMITED']) {
    t.match(matches.get(name), { contactId: null, contactName: 'Nova Bakery Ltd', outcome: 'create' });
  }
});

t.test('no contacts in the books, or a name with nothing to compare: create at 0', async (t) => {
  t.same(matchContacts(['Acme Ltd'], []).get('Acme Ltd'), {
    contactId: null,
    contactName: 'Acme Ltd',
    outcome: 'create',
    confidence: 0,
    reason: 'no existing contacts to compare with: a new contact Acme Ltd is created on confirm',
  });
  const odd = matchContacts(['—', '?'], [{ id: 'con_x', name: '!' }]);
  t.match(odd.get('—'), { outcome: 'create', confidence: 0 });
  t.not(createKey('—'), createKey('?'), 'two names without letters do not merge');
});

t.test('property: the confidence is the best similarity over the books, and the outcome follows the threshold', async (t) => {
  const word = fc.constantFrom('acme', 'bolt', 'green', 'field', 'smith', 'jones', 'north', 'wind', 'bakery', 'works');
  const name = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
  fc.assert(
    fc.property(name, fc.uniqueArray(name, { maxLength: 8 }), (file, known) => {
      const candidates = known.map((n, i) => ({ id: `con_${i}`, name: n }));
      const match = matchContacts([file], candidates).get(file);
      if (!match) return false;
      // Each candidate's similarity worked out from the distance, independently of the pruning in matchContacts.
      const scores = known.map((n) => {
        const longer = Math.max(n.length, file.length);
        return Math.floor((100 * (longer - levenshtein(n, file))) / longer);
      });
      const best = scores.length === 0 ? 0 : Math.max(...scores);
      if (match.confidence !== best) return false;
      if (match.outcome === 'match') return known.includes(file);
      if (match.outcome === 'fuzzy') return best >= fuzzyThreshold && scores.filter((s) => s === best).length === 1;
      return best < fuzzyThreshold || scores.filter((s) => s === best).length > 1;
    }),
    { numRuns: 300 },
  );
  t.pass('confidence and outcome agree with the similarities');
});
