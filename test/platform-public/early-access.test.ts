/**
 * GET /v1/early-access/stats: 50 spots, each claimed by an organisation with
 * a verified user who is not an administrator; the trial a new organisation
 * gets falls from 90 days to 30 once all 50 are claimed.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { insertUser } from '../../src/engine/users/users.js';

const clock = '2026-11-21T10:00:00Z';

t.test('spots claimed by verified signups, and the trial the next organisation gets, across the 50th', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const stats = async () => {
    const r = await api.request('GET', '/v1/early-access/stats', { key: null });
    t.equal(r.status, 200);
    return r.body.data as Record<string, unknown>;
  };
  /** A user of the organisation, verified unless said otherwise. */
  let n = 0;
  const signUp = (organisationId: string, { verified = true, admin = false } = {}) =>
    books.store.platform.write(async (trx) => {
      const u = await insertUser(trx, books.clock, { organisationId, email: `u${++n}@example.com`, fullName: `User ${n}`, passwordHash: 'x', isAdmin: admin });
      if (verified) await trx.updateTable('users').set({ email_verified: 1 }).where('id', '=', u.id).execute();
    });
  t.same(await stats(), { totalSpots: 50, claimed: 0, remaining: 50, trialDays: 90, isEarlyAccess: true }, 'an organisation without users claims nothing');
  await signUp(books.organisationId, { verified: false });
  await signUp(books.organisationId, { admin: true });
  t.same(await stats(), { totalSpots: 50, claimed: 0, remaining: 50, trialDays: 90, isEarlyAccess: true }, 'nor an unverified user, nor an administrator');
  await signUp(books.organisationId);
  await signUp(books.organisationId);
  t.same(await stats(), { totalSpots: 50, claimed: 1, remaining: 49, trialDays: 90, isEarlyAccess: true }, 'two verified users of one organisation: one spot');

  // 47 more organisations as platform rows with a verified user each (provisioning each one's books would take minutes).
  for (let i = 0; i < 47; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    await books.store.platform.write((trx) =>
      trx.insertInto('organisations').values({ id, created_at: clock, trial_days: 90, trial_ends_at: clock, early_access: 1 }).execute(),
    );
    await signUp(id);
  }
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
  t.match(await trialOf(forty9th), { trialDays: 90, earlyAccess: true });
  await signUp(forty9th);
  const fiftieth = await make('Fifty Ltd');
  t.match(await trialOf(fiftieth), { trialDays: 90, earlyAccess: true }, '49 claimed when the 50th was made');
  await signUp(fiftieth);
  t.same(await stats(), { totalSpots: 50, claimed: 50, remaining: 0, trialDays: 30, isEarlyAccess: false }, 'the last spot taken: the next trial is 30 days');

  const fifty1st = await make('Fifty-one Ltd');
  t.match(await trialOf(fifty1st), { trialDays: 30, earlyAccess: false }, 'the 51st did not: stats and provisioning agree');
  await signUp(fifty1st);
  t.same(await stats(), { totalSpots: 50, claimed: 50, remaining: 0, trialDays: 30, isEarlyAccess: false }, 'claimed never passes the spots');
});
