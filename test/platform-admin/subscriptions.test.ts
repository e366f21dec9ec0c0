/**
 * The administrator's subscription endpoints over HTTP, against the payment
 * provider's stand-in: cancel, refund, retry payment. Each success appends
 * one audit row about the organisation; a refusal (ours or the provider's)
 * appends none.
 */
import t from 'tap';
import { expectError } from '../http/support.js';
import { billedBooks, subscribe, trialEnd } from '../platform-billing/support.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { addUser, adminAndUser, adminPassword, auditRows, logIn } from './support.js';

const ua = { headers: { 'user-agent': 'acct-tests' } };

t.test('cancel: at the period end, then at once; one audit row each; without a subscription 409', async (t) => {
  const b = await billedBooks(t);
  const { admin, adminId, user } = await adminAndUser(t, b.api, b.books);
  const path = `/v1/admin/orgs/${b.books.organisationId}/cancel-subscription`;
  expectError(t, await b.api.request('POST', path, { key: admin, body: {} }), 409, 'conflict', { message: /no customer/ });
  expectError(t, await b.api.request('POST', path, { key: user, body: {} }), 403, 'insufficient_scope');
  const { subscriptionId } = await subscribe(t, b);

  const atEnd = await b.api.request('POST', path, { key: admin, body: { atPeriodEnd: true, reason: 'asked by the customer' }, ...ua });
  t.equal(atEnd.status, 200);
  t.same(atEnd.body.data, { subscriptionId, status: 'trialing', cancelAtPeriodEnd: true, currentPeriodEnd: trialEnd });
  const rows = await auditRows(b.books);
  t.equal(rows.length, 1);
  t.match(rows[0], {
    action: 'SUBSCRIPTION_CANCELLED',
    entity_type: 'organisation',
    entity_id: b.books.organisationId,
    admin_id: adminId,
    user_agent: 'acct-tests',
  });
  t.match(JSON.parse(rows[0]!.details), { request: { method: 'POST', path }, subscriptionId, atPeriodEnd: true, reason: 'asked by the customer' });

  const now = await b.api.request('POST', path, { key: admin, body: {} });
  t.match(now.body.data, { subscriptionId, status: 'canceled' });
  t.equal((await auditRows(b.books)).length, 2);
  const org = await b.api.request('GET', `/v1/admin/orgs/${b.books.organisationId}`, { key: admin });
  t.match(org.body.data, { subscriptionStatus: 'canceled', recentActivity: [{ action: 'SUBSCRIPTION_CANCELLED' }, { action: 'SUBSCRIPTION_CANCELLED' }] });
  expectError(t, await b.api.request('POST', path, { key: admin, body: { atPeriodEnd: 'yes' } }), 400, 'invalid_type', { field: 'atPeriodEnd' });
  expectError(
    t,
    await b.api.request('POST', '/v1/admin/orgs/00000000-0000-4000-8000-000000000000/cancel-subscription', { key: admin, body: {} }),
    404,
    'not_found',
  );
  t.equal((await auditRows(b.books)).length, 2, 'no row for the refusals');
});

t.test('refund: the latest paid invoice in full; retry: declined is 422 and unaudited, paid is audited', async (t) => {
  const b = await billedBooks(t);
  const { admin } = await adminAndUser(t, b.api, b.books);
  const { subscriptionId } = await subscribe(t, b, 'limited_company');
  const id = b.books.organisationId;
  expectError(t, await b.api.request('POST', `/v1/admin/orgs/${id}/refund`, { key: admin, body: {} }), 404, 'not_found', { message: /no paid invoice/ });
  b.standIn.addInvoice(subscriptionId, 'paid', 2400);
  const latest = b.standIn.addInvoice(subscriptionId, 'paid', 2400);

  const refund = await b.api.request('POST', `/v1/admin/orgs/${id}/refund`, { key: admin, body: { reason: 'charged twice' } });
  t.equal(refund.status, 200);
  // The Limited Company plan's month, £24.00: 2400 pence back.
  t.match(refund.body.data, { refundId: /^re_/, invoiceId: latest['id'], amount: 2400, currency: 'gbp', status: 'succeeded' });
  t.match((await auditRows(b.books)).at(-1), { action: 'PAYMENT_REFUNDED', entity_id: id });

  expectError(t, await b.api.request('POST', `/v1/admin/orgs/${id}/retry-payment`, { key: admin }), 404, 'not_found', { message: /no open invoice/ });
  const open = b.standIn.addInvoice(subscriptionId, 'open', 2400);
  expectError(t, await b.api.request('POST', `/v1/admin/orgs/${id}/retry-payment`, { key: admin }), 422, 'billing_provider_rejected', {
    message: /insufficient funds/,
  });
  t.equal((await auditRows(b.books)).length, 1, 'a declined retry leaves no audit row');
  b.standIn.cardPays(true);
  const paid = await b.api.request('POST', `/v1/admin/orgs/${id}/retry-payment`, { key: admin });
  t.equal(paid.status, 200);
  t.same(paid.body.data, { invoiceId: open['id'], status: 'paid', amountDue: 2400 });
  t.match((await auditRows(b.books)).at(-1), { action: 'PAYMENT_RETRIED', entity_id: id });
  t.equal((await auditRows(b.books)).length, 2);
});

t.test('with an Idempotency-Key the provider is called once and the replay appends no second row', async (t) => {
  const b = await billedBooks(t);
  const { admin } = await adminAndUser(t, b.api, b.books);
  const { subscriptionId } = await subscribe(t, b);
  const path = `/v1/admin/orgs/${b.books.organisationId}/cancel-subscription`;
  const send = () => b.api.request('POST', path, { key: admin, body: {}, headers: { 'Idempotency-Key': 'cancel-once' } });
  const first = await send();
  const second = await send();
  t.equal(first.status, 200);
  t.same(second.body, first.body);
  t.equal(second.headers.get('idempotent-replayed'), 'true');
  t.equal(b.standIn.to('DELETE', `/v1/subscriptions/${subscriptionId}`).length, 1, 'cancelled at the provider once');
  t.equal((await auditRows(b.books)).length, 1);
});

t.test('without a provider key configured: 422 and nothing written', async (t) => {
  const b = await billedBooks(t, { billing: null });
  const { admin } = await adminAndUser(t, b.api, b.books);
  expectError(t, await b.api.request('POST', `/v1/admin/orgs/${b.books.organisationId}/refund`, { key: admin, body: {} }), 422, 'billing_not_configured');
  t.equal((await auditRows(b.books)).length, 0);
});

t.test('closing an organisation cancels its live subscription at the provider first; a refused close cancels nothing', async (t) => {
  const b = await billedBooks(t);
  // The administrator belongs to another organisation, so that this one may be closed.
  const home = await createOrganisation(b.books.store, b.books.clock, { name: 'Operator Ltd', businessType: 'limited_company', vatScheme: 'standard' });
  await addUser(b.books, 'root@example.com', { admin: true, fullName: 'Root Admin', organisationId: home.organisationId });
  const admin = await logIn(t, b.api, 'root@example.com', adminPassword);
  const { subscriptionId } = await subscribe(t, b);
  const cancels = () => b.standIn.to('DELETE', `/v1/subscriptions/${subscriptionId}`).length;

  // The administrator's own organisation is refused before the provider is asked anything.
  expectError(t, await b.api.request('DELETE', `/v1/admin/orgs/${home.organisationId}`, { key: admin }), 409, 'conflict', { message: /own organisation/ });
  t.equal(cancels(), 0, 'nothing cancelled by a refused close');

  const closed = await b.api.request('DELETE', `/v1/admin/orgs/${b.books.organisationId}`, { key: admin });
  t.equal(closed.status, 200, JSON.stringify(closed.body.error ?? ''));
  t.match(closed.body.data, { id: b.books.organisationId, closed: true, subscriptionCancelled: subscriptionId });
  t.equal(cancels(), 1, 'cancelled at once at the provider: a closed organisation is charged no more');
  const shown = await b.api.request('GET', `/v1/admin/orgs/${b.books.organisationId}`, { key: admin });
  t.match(shown.body.data, { closedAt: closed.body.data.closedAt });
  t.match(JSON.parse((await auditRows(b.books)).at(-1)!.details), { subscriptionCancelled: subscriptionId });
});
