/** GET /v1/admin/orgs shows billing's state of an organisation once it subscribes: the plan paid for, the provider's status, its customer id. */
import t from 'tap';
import { hashPassword } from '../../src/engine/users/password.js';
import { insertUser } from '../../src/engine/users/users.js';
import { billedBooks, subscribe } from './support.js';

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
  await subscribe(t, b, 'sole_trader');
  t.match(await row(), { plan: 'sole_trader', subscriptionStatus: 'trialing', stripeCustomerId: /^cus_/ });
});
