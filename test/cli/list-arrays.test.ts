/**
 * Under --json every list prints as an array (acct --help says so),
 * categorisation-rules list and global too, whose API data is
 * {rules, total}; the HTTP API keeps its shape.
 */
import t from 'tap';
import { acctJson, books } from './support.js';

t.test('categorisation-rules list and global print an array under --json', async (t) => {
  const { dir } = await books(t);
  const seeded = await acctJson(t, dir, ['categorisation-rules', 'list']);
  t.ok(Array.isArray(seeded), 'the rules a new organisation starts with: an array, not {"rules":[…],"total":N}');
  const rule = await acctJson(t, dir, [
    'categorisation-rules',
    'create',
    '--name',
    'Stationery',
    '--field',
    'description',
    '--operator',
    'contains',
    '--value',
    'RYMAN',
    '--target-account-id',
    '5100',
  ]);
  const listed = await acctJson(t, dir, ['categorisation-rules', 'list']);
  t.ok(Array.isArray(listed), 'an array');
  t.equal(listed.length, seeded.length + 1, 'one more rule');
  t.ok(
    listed.some((r: { id: number }) => r.id === rule.id),
    'the new rule is in the array',
  );
  t.ok(Array.isArray(await acctJson(t, dir, ['categorisation-rules', 'global'])), 'global rules: an array too');
});
