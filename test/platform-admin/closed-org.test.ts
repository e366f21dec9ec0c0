/**
 * A closed organisation stays closed over HTTP: its users stay suspended
 * (unsuspending one is 409), and no session, key or change reaches its
 * books, even for a user or session that a table edit left alive.
 */
import t from 'tap';
import { newBooks, serveBooks } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { addUser, adminAndUser, logIn, userPassword } from './support.js';

t.test('close an organisation, then unsuspend its user: 409, and the organisation stays shut', async (t) => {
  const books = await newBooks(t, { clock: '2026-11-28T10:00:00Z' });
  const api = await serveBooks(t, books);
  const { admin } = await adminAndUser(t, api, books);
  const other = await createOrganisation(books.store, books.clock, { name: 'Bloggs Joinery', businessType: 'sole_trader', vatScheme: 'not_registered' });
  const kim = await addUser(books, 'kim@bloggs.test', { organisationId: other.organisationId });
  const before = await logIn(t, api, 'kim@bloggs.test', userPassword);

  const closed = await api.request('DELETE', `/v1/admin/orgs/${other.organisationId}`, { key: admin });
  t.equal(closed.status, 200);
  t.match(closed.body.data, { closed: true, usersSuspended: 1, sessionsEnded: 1 });

  expectError(t, await api.request('POST', `/v1/admin/users/${kim}/unsuspend`, { key: admin }), 409, 'conflict', { message: /closed/ });
  const row = await books.store.platform.db.selectFrom('users').select('suspended_at').where('id', '=', kim).executeTakeFirstOrThrow();
  t.not(row.suspended_at, null, 'still suspended');
  expectError(
    t,
    await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'kim@bloggs.test', password: userPassword } }),
    403,
    'account_suspended',
  );

  // A user of the closed organisation left unsuspended (an unsuspension made before this was refused), and the session they had.
  await books.store.platform.write(async (trx) => {
    await trx.updateTable('users').set({ suspended_at: null }).where('id', '=', kim).execute();
    await trx.updateTable('sessions').set({ revoked_at: null }).where('user_id', '=', kim).execute();
  });
  expectError(t, await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'kim@bloggs.test', password: userPassword } }), 403, 'forbidden', {
    message: /closed/,
  });
  expectError(t, await api.request('GET', '/v1/organisation', { key: before }), 401, 'unauthorized', { message: /closed/ });
  expectError(t, await api.request('POST', '/v1/contacts', { key: before, body: { contactType: 'customer', name: 'Acme Widgets Ltd' } }), 401, 'unauthorized');
  expectError(t, await api.request('POST', '/v1/api-keys', { key: before, body: { name: 'CI server' } }), 401, 'unauthorized');
  t.equal(
    (
      await books.store.platform.db
        .selectFrom('api_keys')
        .select('id')
        .where('organisation_id', '=', other.organisationId)
        .where('revoked_at', 'is', null)
        .execute()
    ).length,
    0,
    'no live key',
  );
});
