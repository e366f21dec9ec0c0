/**
 * An administrator's requests to the administrator endpoints (/v1/admin/…)
 * are about the platform, not the organisation the administrator belongs
 * to: they count against a limit of their own, per administrator (120 a
 * minute, the larger plan's), not against that organisation's plan, so an
 * administrator at work neither is refused by a Sole Trader's 60 nor uses
 * up the slots of the organisation's own keys. The administrator's other
 * requests count against the organisation's plan as any key's do.
 */
import t from 'tap';
import { movingClock, newBooks } from '../helpers/index.js';
import { expectError, serveWith } from './support.js';
import { adminAndUser } from '../platform-admin/support.js';

t.test('administrator requests: their own 120 a minute, apart from the organisation’s plan', async (t) => {
  const clock = movingClock('2026-11-21T10:00:00Z');
  const books = await newBooks(t, { clock, organisation: { businessType: 'sole_trader', name: 'Jo Bloggs Plumbing', vatScheme: 'not_registered' } });
  const api = await serveWith(t, books, { clock });
  const { admin } = await adminAndUser(t, api, books);

  // 70 administrator reads: more than the Sole Trader plan's 60, all answered.
  const adminStatuses: number[] = [];
  for (let i = 0; i < 70; i++) adminStatuses.push((await api.request('GET', '/v1/admin/users', { key: admin })).status);
  t.same(adminStatuses, Array(70).fill(200), '70 administrator requests in a minute pass');
  const shown = await api.request('GET', '/v1/admin/users', { key: admin });
  t.equal(shown.headers.get('x-ratelimit-limit'), '120', 'the administrator limit is shown');
  t.equal(shown.headers.get('x-ratelimit-remaining'), '49', '120 − 71 = 49 left');

  // The organisation's own key still has all of its 60.
  const orgStatuses: number[] = [];
  for (let i = 0; i < 60; i++) orgStatuses.push((await api.request('GET', '/v1/accounts')).status);
  t.same(orgStatuses, Array(60).fill(200), 'the organisation’s key: 60 in the same minute');
  expectError(t, await api.request('GET', '/v1/accounts'), 429, 'rate_limited', { field: null, message: /Sole Trader/ });

  // 49 more administrator requests reach 120; the 121st is refused, naming the administrator limit.
  for (let i = 0; i < 49; i++) t.equal((await api.request('GET', '/v1/admin/users', { key: admin })).status, 200);
  expectError(t, await api.request('GET', '/v1/admin/users', { key: admin }), 429, 'rate_limited', { field: null, message: /administrator/ });
});
