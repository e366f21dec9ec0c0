/** GET /v1/admin/orgs shows billing's state of an organisation once it subscribes: the plan paid for, the provider's status, its customer id. */
import t from 'tap';
import { hashPassword } from '../../src/engine/users/password.js';
import { insertUser } from '../../src/engine/users/users.js';
import { billedBooks, day, status, subscribe, trialEnd } from './support.js';

t.test("an administrator sees the organisation's plan, subscription status and provider customer", async (t) => {
  const b = await billedBooks(t);
  const passwordHash = await hashPassword('root passphrase');
  await b.books.store.platform.write((trx) =>
    insertUser(trx, b.clock, { organisationId: b.books.organisationId, email: 'root@example.com', fullName: 'Root', passwordHash, isAdmin: true }),
  );
  const login = await b.api.request('POST', '/v1/auth/login', { key: null, body: { email: 'root@example.com', password: 'root passphrase' } });
  const admin = login.body.data.accessToken as string;
  const row = async () => (await b.api.request('GET', `/v1/admin/orgs/${b.books.organisationId}`, { key: admin })).body.data;
  t.match(await row(), { plan: 'trial', subscriptionStatus: 'trialing', stripeCustomerId: null });
  await subscribe(t, b, 'limited_company');
  t.match(await row(), { plan: 'limited_company', subscriptionStatus: 'trialing', stripeCustomerId: /^cus_/ });
});

t.test('once subscribed mid-trial, GET /billing/status, GET /organisation and GET /admin/orgs/{id} agree on the trial: over, 0 days, no end', async (t) => {
  const b = await billedBooks(t);
  b.clock.advance(33 * day);
  const passwordHash = await hashPassword('root passphrase');
  await b.books.store.platform.write((trx) =>
    insertUser(trx, b.clock, { organisationId: b.books.organisationId, email: 'root@example.com', fullName: 'Root', passwordHash, isAdmin: true }),
  );
  const login = await b.api.request('POST', '/v1/auth/login', { key: null, body: { email: 'root@example.com', password: 'root passphrase' } });
  const admin = login.body.data.accessToken as string;
  const three = async () => {
    const billing = await status(t, b);
    const org = (await b.api.request('GET', '/v1/organisation')).body.data.subscription;
    const row = (await b.api.request('GET', `/v1/admin/orgs/${b.books.organisationId}`, { key: admin })).body.data;
    return [billing, org, row].map((x: Record<string, unknown>) => ({ trialEndsAt: x['trialEndsAt'], trialDaysRemaining: x['trialDaysRemaining'] }));
  };
  // 7 February 2026 to 5 April: 28 + 29 = 57 days left of the trial, the same in all three.
  t.same(await three(), Array(3).fill({ trialEndsAt: trialEnd, trialDaysRemaining: 57 }));
  await subscribe(t, b);
  // The 57 days now run as the provider subscription's trial; the service's own trial is over.
  t.same(await three(), Array(3).fill({ trialEndsAt: null, trialDaysRemaining: 0 }));
});
