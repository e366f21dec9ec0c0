/** GET /v1/early-access/stats: 50 spots, one claimed by each of the first 50 organisations; the trial falls from 90 days to 30 at the 51st. */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';

const clock = '2026-11-21T10:00:00Z';

t.test('spots claimed by organisations, and the trial the next one gets, across the 50th', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const stats = async () => {
    const r = await api.request('GET', '/v1/early-access/stats', { key: null });
    t.equal(r.status, 200);
    return r.body.data as Record<string, unknown>;
  };
  t.same(await stats(), { totalSpots: 50, claimed: 1, remaining: 49, trialDays: 90, isEarlyAccess: true }, 'the first organisation holds one spot');

  // 47 more organisations as platform rows (provisioning each one's books would take minutes); only their number counts.
  await books.store.platform.write(async (trx) => {
    for (let i = 0; i < 47; i++) {
      await trx
        .insertInto('organisations')
        .values({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, created_at: clock, trial_days: 90, trial_ends_at: clock, early_access: 1 })
        .execute();
    }
  });
  t.same(await stats(), { totalSpots: 50, claimed: 48, remaining: 2, trialDays: 90, isEarlyAccess: true });

  const keys = new Map<string, string>();
  /** The trial an organisation was given, as GET /organisation shows it to its own key. */
  const trialOf = async (id: string) => {
    const r = await api.request('GET', '/v1/organisation', { key: keys.get(id) ?? null });
    return r.body.data.subscription as { trialDays: number; earlyAccess: boolean };
  };
  const make = async (name: string) => {
    const created = await createOrganisation(books.store, books.clock, { name, businessType: 'sole_trader', vatScheme: 'not_registered' });
    keys.set(created.organisationId, created.apiKey);
    return created.organisationId;
  };

  const forty9th = await make('Forty-nine Ltd');
  t.same(await stats(), { totalSpots: 50, claimed: 49, remaining: 1, trialDays: 90, isEarlyAccess: true });
  t.match(await trialOf(forty9th), { trialDays: 90, earlyAccess: true });

  const fiftieth = await make('Fifty Ltd');
  t.same(await stats(), { totalSpots: 50, claimed: 50, remaining: 0, trialDays: 30, isEarlyAccess: false }, 'the last spot taken: the next trial is 30 days');
  t.match(await trialOf(fiftieth), { trialDays: 90, earlyAccess: true }, 'the 50th organisation got the early-access trial');

  const fifty1st = await make('Fifty-one Ltd');
  t.match(await trialOf(fifty1st), { trialDays: 30, earlyAccess: false }, 'the 51st did not: stats and provisioning agree');
  t.same(await stats(), { totalSpots: 50, claimed: 50, remaining: 0, trialDays: 30, isEarlyAccess: false }, 'claimed never passes the spots');
});
