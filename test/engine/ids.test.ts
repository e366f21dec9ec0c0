/** Ids: prefix, time, and creation order within one millisecond. */
import t from 'tap';
import { idPattern, newId } from '../../src/engine/ids.js';

t.test('an id is the prefix, 10 characters of time and 16 more', async (t) => {
  const id = newId('inv', new Date('2026-11-21T10:00:00Z'));
  t.match(id, /^inv_[0-9a-z]{26}$/);
  t.match(id, idPattern('inv'));
});

t.test('ids made in the same millisecond sort in the order they were made', async (t) => {
  const at = new Date('2026-11-21T10:00:00.123Z');
  const ids = Array.from({ length: 500 }, () => newId('evt', at));
  t.equal(new Set(ids).size, 500, 'all different');
  t.strictSame([...ids].sort(), ids, 'already in order');
});

t.test('a later millisecond sorts after an earlier one', async (t) => {
  const a = newId('txn', new Date('2026-11-21T10:00:00.001Z'));
  const b = newId('txn', new Date('2026-11-21T10:00:00.002Z'));
  t.ok(a < b);
});
