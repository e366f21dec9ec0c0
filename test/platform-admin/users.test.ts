/**
 * The administrator endpoints on users over HTTP: list and read, suspend
 * and unsuspend, unlock, disable TOTP, role, send a reset link,
 * impersonate, delete. Every change appends exactly one audit row; every
 * refusal changes nothing and appends none.
 */
import t from 'tap';
import type { Test } from 'tap';
import { sql } from 'kysely';
import { movingClock, newBooks, serveBooks, type Books } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { startSmtp } from '../sales-cli/support.js';
import { smtpMailer } from '../../src/mail/smtp.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { addUser, adminAndUser, adminPassword, auditRows, logIn, userPassword } from './support.js';

const start = '2026-11-28T10:00:00Z';

/** The users table row of an id. */
const userRow = (books: Books, id: number) => books.store.platform.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Check the one audit row a change appended (the newest), and that it is the only new one. */
async function expectAudit(t: Test, books: Books, before: number, expected: { action: string; entityId: number | string; adminId: number | null }) {
  const rows = await auditRows(books);
  t.equal(rows.length, before + 1, `one audit row for ${expected.action}`);
  const row = rows.at(-1)!;
  t.match(row, { action: expected.action, entity_type: 'user', entity_id: String(expected.entityId), admin_id: expected.adminId });
  t.match(row.ip_address, /127\.0\.0\.1/, 'the caller address');
  t.equal(row.user_agent, 'acct-tests', 'the user agent');
  t.match(JSON.parse(row.details), { request: { method: /^(POST|PATCH|DELETE)$/, path: /^\/v1\/admin\/users\// } }, 'the request');
  return JSON.parse(row.details) as Record<string, unknown>;
}

const ua = { headers: { 'user-agent': 'acct-tests' } };

t.test('the list: pagination B, newest first, filters, each with its organisation', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, userId } = await adminAndUser(t, api, books);
  const other = await createOrganisation(books.store, books.clock, { name: 'Bloggs Joinery', businessType: 'sole_trader', vatScheme: 'not_registered' });
  const kimId = await addUser(books, 'kim@bloggs.test', { organisationId: other.organisationId, fullName: 'Kim Bloggs' });

  const all = await api.request('GET', '/v1/admin/users', { key: admin });
  t.equal(all.status, 200);
  t.same(all.body.meta, { page: 1, perPage: 20, total: 3, pages: 1 });
  // Same created_at (a fixed clock): newest first falls back to the id, highest first.
  t.same(
    all.body.data.map((u: { email: string }) => u.email),
    ['kim@bloggs.test', 'jo@example.com', 'root@example.com'],
  );
  t.match(all.body.data[0], {
    id: `usr_${kimId}`,
    role: 'user',
    isActive: true,
    status: 'active',
    organisation: { id: other.organisationId, name: 'Bloggs Joinery' },
  });
  t.match(all.body.data[2], { role: 'admin', isAdmin: true });

  const paged = await api.request('GET', '/v1/admin/users?perPage=2&page=2', { key: admin });
  t.same(paged.body.meta, { page: 2, perPage: 2, total: 3, pages: 2 }, '3 users, 2 a page: 2 pages');
  t.equal(paged.body.data.length, 1);

  t.same(
    (await api.request('GET', '/v1/admin/users?search=BLOGGS', { key: admin })).body.data.map((u: { id: string }) => u.id).sort(),
    [`usr_${userId}`, `usr_${kimId}`].sort(),
    'name or address, any case',
  );
  t.same((await api.request('GET', '/v1/admin/users?role=admin', { key: admin })).body.data.length, 1);
  t.same((await api.request('GET', `/v1/admin/users?organisationId=${other.organisationId}`, { key: admin })).body.data.length, 1);
  // A literal search: % matches only a % sign.
  t.same((await api.request('GET', '/v1/admin/users?search=%25', { key: admin })).body.data, []);
  expectError(t, await api.request('GET', '/v1/admin/users?status=gone', { key: admin }), 400, 'validation_error', { field: 'status' });
});

t.test('suspend: sessions end, logins get 403; again is 409; unsuspend lets them back; each change one audit row', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, adminId, user, userId } = await adminAndUser(t, api, books);
  t.equal((await api.request('GET', '/v1/auth/me', { key: user })).status, 200);

  const r = await api.request('POST', `/v1/admin/users/${userId}/suspend`, { key: admin, body: { reason: 'chargeback' }, ...ua });
  t.equal(r.status, 200);
  t.match(r.body.data, { id: `usr_${userId}`, status: 'suspended', isActive: false, sessionsEnded: 1, suspendedAt: '2026-11-28T10:00:00.000Z' });
  t.match(await expectAudit(t, books, 0, { action: 'USER_SUSPENDED', entityId: userId, adminId }), { reason: 'chargeback', sessionsEnded: 1 });
  expectError(t, await api.request('GET', '/v1/auth/me', { key: user }), 401, 'unauthorized', { message: /ended/ });
  expectError(
    t,
    await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'jo@example.com', password: userPassword } }),
    403,
    'account_suspended',
  );
  // A wrong password still gets the one answer for bad credentials: suspension is told only to whoever knows the password.
  expectError(
    t,
    await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'jo@example.com', password: 'wrong password' } }),
    401,
    'unauthorized',
  );

  expectError(t, await api.request('POST', `/v1/admin/users/${userId}/suspend`, { key: admin, body: {} }), 409, 'conflict', { message: /already suspended/ });
  expectError(t, await api.request('POST', `/v1/admin/users/${adminId}/suspend`, { key: admin, body: {} }), 409, 'conflict', { message: /own account/ });
  expectError(t, await api.request('POST', '/v1/admin/users/99/suspend', { key: admin, body: {} }), 404, 'not_found');
  expectError(t, await api.request('POST', `/v1/admin/users/${userId}/suspend`, { key: admin, body: { reason: 'x'.repeat(501) } }), 400, 'validation_error', {
    field: 'reason',
  });
  t.equal((await auditRows(books)).length, 1, 'the refusals appended nothing');

  const lifted = await api.request('POST', `/v1/admin/users/${userId}/unsuspend`, { key: admin, ...ua });
  t.match(lifted.body.data, { status: 'active', suspendedAt: null });
  await expectAudit(t, books, 1, { action: 'USER_UNSUSPENDED', entityId: userId, adminId });
  await logIn(t, api, 'jo@example.com', userPassword);
  expectError(t, await api.request('POST', `/v1/admin/users/${userId}/unsuspend`, { key: admin }), 409, 'conflict');
});

t.test('unlock: an account locked by five failed logins logs in again at once', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, adminId, userId } = await adminAndUser(t, api, books);
  for (let i = 0; i < 5; i++) await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'jo@example.com', password: 'wrong password' } });
  expectError(t, await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'jo@example.com', password: userPassword } }), 423, 'account_locked');
  t.match((await api.request('GET', `/v1/admin/users/${userId}`, { key: admin })).body.data, { status: 'locked', lockedUntil: '2026-11-28T10:15:00.000Z' });
  t.same((await api.request('GET', '/v1/admin/users?status=locked', { key: admin })).body.data.length, 1);

  const r = await api.request('POST', `/v1/admin/users/${userId}/unlock`, { key: admin, ...ua });
  t.match(r.body.data, { status: 'active', lockedUntil: null });
  t.match(await expectAudit(t, books, 0, { action: 'USER_UNLOCKED', entityId: userId, adminId }), { lockedUntil: '2026-11-28T10:15:00.000Z' });
  await logIn(t, api, 'jo@example.com', userPassword);
});

t.test('disable MFA: the password alone logs in again; with no TOTP it is 409', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, adminId, userId } = await adminAndUser(t, api, books);
  await books.store.platform.write((trx) =>
    trx.updateTable('users').set({ totp_enabled: 1, totp_secret: 'JBSWY3DPEHPK3PXP' }).where('id', '=', userId).execute(),
  );
  const challenged = await api.request('POST', '/v1/auth/login', { key: null, body: { email: 'jo@example.com', password: userPassword } });
  t.equal(challenged.body.data.requiresTotp, true, 'TOTP asked for');

  const r = await api.request('POST', `/v1/admin/users/${userId}/disable-mfa`, { key: admin, ...ua });
  t.equal(r.body.data.totpEnabled, false);
  await expectAudit(t, books, 0, { action: 'MFA_DISABLED', entityId: userId, adminId });
  t.match(await userRow(books, userId), { totp_enabled: 0, totp_secret: null });
  await logIn(t, api, 'jo@example.com', userPassword);
  expectError(t, await api.request('POST', `/v1/admin/users/${userId}/disable-mfa`, { key: admin }), 409, 'conflict');
  t.equal((await auditRows(books)).length, 1);
});

t.test("role: a user made administrator may call the administrator endpoints with the session they have; an administrator's own role is refused", async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, adminId, user, userId } = await adminAndUser(t, api, books);
  expectError(t, await api.request('GET', '/v1/admin/users', { key: user }), 403, 'insufficient_scope');
  const r = await api.request('PATCH', `/v1/admin/users/${userId}/role`, { key: admin, body: { role: 'admin' }, ...ua });
  t.match(r.body.data, { role: 'admin', isAdmin: true });
  t.match(await expectAudit(t, books, 0, { action: 'USER_ROLE_CHANGED', entityId: userId, adminId }), { before: 'user', after: 'admin' });
  t.equal((await api.request('GET', '/v1/admin/users', { key: user })).status, 200, 'at once');

  expectError(t, await api.request('PATCH', `/v1/admin/users/${adminId}/role`, { key: admin, body: { role: 'user' } }), 409, 'conflict', { message: /own/ });
  expectError(t, await api.request('PATCH', `/v1/admin/users/${userId}/role`, { key: admin, body: { role: 'owner' } }), 400, 'validation_error', {
    field: 'role',
  });
  expectError(t, await api.request('PATCH', `/v1/admin/users/${userId}/role`, { key: admin, body: {} }), 400, 'validation_error', { field: 'role' });
  t.equal((await auditRows(books)).length, 1);
  // Back to a user: the session loses the status on its next request.
  await api.request('PATCH', `/v1/admin/users/${userId}/role`, { key: admin, body: { role: 'user' } });
  expectError(t, await api.request('GET', '/v1/admin/users', { key: user }), 403, 'insufficient_scope');
});

t.test('send reset link: mailed after the check, the earlier unused token stops working, the new one resets; no SMTP is 422', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const smtp = await startSmtp(t);
  const api = await serveBooks(t, books, { mailer: smtpMailer(smtp.url()) });
  const { admin, adminId, userId } = await adminAndUser(t, api, books);
  const tokenOfLast = () => /\b[0-9a-f]{64}\b/.exec(smtp.messages.at(-1)?.raw.toString('utf8') ?? '')?.[0] ?? '';

  await api.request('POST', '/v1/password-reset/forgot-password', { key: null, body: { email: 'jo@example.com' } });
  await api.settled();
  const first = tokenOfLast();
  t.equal(first.length, 64, 'the user asked for one first');
  const r = await api.request('POST', `/v1/admin/users/${userId}/send-reset-link`, { key: admin, ...ua });
  t.equal(r.status, 200);
  t.same(r.body.data, { sent: true, email: 'jo@example.com', expiresAt: '2026-11-28T11:00:00.000Z' }, 'an hour from now');
  t.match(await expectAudit(t, books, 0, { action: 'PASSWORD_RESET_SENT', entityId: userId, adminId }), { earlierTokensSpent: 1 });
  const second = tokenOfLast();
  t.not(second, first);
  const validate = (token: string) => api.request('GET', `/v1/password-reset/reset-password/validate?token=${token}`, { key: null });
  t.equal((await validate(first)).body.data.valid, false, 'the earlier token is spent');
  t.equal((await validate(second)).body.data.valid, true);
  const reset = await api.request('POST', '/v1/password-reset/reset-password', { key: null, body: { token: second, password: 'a brand new passphrase' } });
  t.equal(reset.status, 200);
  await logIn(t, api, 'jo@example.com', 'a brand new passphrase');

  await api.request('POST', `/v1/admin/users/${userId}/suspend`, { key: admin, body: {} });
  const sent = smtp.messages.length;
  expectError(t, await api.request('POST', `/v1/admin/users/${userId}/send-reset-link`, { key: admin }), 400, 'USER_INACTIVE');
  expectError(t, await api.request('POST', '/v1/admin/users/42/send-reset-link', { key: admin }), 404, 'not_found');
  t.equal(smtp.messages.length, sent, 'no e-mail for a refusal');
  t.equal((await auditRows(books)).length, 2, 'the send and the suspension only');

  const bare = await serveBooks(t, books);
  const rootAgain = await logIn(t, bare, 'root@example.com', adminPassword);
  await bare.request('POST', `/v1/admin/users/${userId}/unsuspend`, { key: rootAgain });
  expectError(t, await bare.request('POST', `/v1/admin/users/${userId}/send-reset-link`, { key: rootAgain }), 422, 'unprocessable_entity', {
    message: /smtp/i,
  });
  t.equal((await auditRows(books)).length, 3, 'no row for the refusal without SMTP');
});

t.test('impersonate: a session of the user, 15 minutes, not refreshable, never an administrator; administrators cannot be impersonated', async (t) => {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  const { admin, adminId, userId } = await adminAndUser(t, api, books);
  clock.advance(60_000);
  const lastLogin = (await userRow(books, userId)).last_login;
  const r = await api.request('POST', `/v1/admin/users/${userId}/impersonate`, { key: admin, ...ua });
  t.equal(r.status, 201);
  t.match(r.body.data, { expiresIn: 900, user: { id: `usr_${userId}`, email: 'jo@example.com', isAdmin: false }, impersonatedBy: 'root@example.com' });
  await expectAudit(t, books, 0, { action: 'USER_IMPERSONATED', entityId: userId, adminId });
  const as = r.body.data.accessToken as string;
  t.equal((await api.request('GET', '/v1/auth/me', { key: as })).body.data.email, 'jo@example.com', 'acts as the user');
  expectError(t, await api.request('POST', '/v1/auth/refresh', { key: null, body: { refreshToken: r.body.data.refreshToken } }), 401, 'unauthorized');
  t.equal((await userRow(books, userId)).last_login, lastLogin, 'not a login of the user');
  clock.advance(15 * 60_000);
  expectError(t, await api.request('GET', '/v1/auth/me', { key: as }), 401, 'unauthorized', { message: /expired/ });
  const adminAgain = await logIn(t, api, 'root@example.com', adminPassword);

  const other = await addUser(books, 'second@example.com', { admin: true });
  expectError(t, await api.request('POST', `/v1/admin/users/${other}/impersonate`, { key: adminAgain }), 409, 'conflict', { message: /administrator/ });
  expectError(t, await api.request('POST', `/v1/admin/users/${adminId}/impersonate`, { key: adminAgain }), 409, 'conflict');
  t.equal((await auditRows(books)).length, 1);
});

t.test('delete: the user, their sessions and tokens go; the audit keeps who they were; self is refused', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, adminId, user, userId } = await adminAndUser(t, api, books);
  const r = await api.request('DELETE', `/v1/admin/users/${userId}`, { key: admin, ...ua });
  t.same(r.body.data, { id: `usr_${userId}`, deleted: true });
  t.match(await expectAudit(t, books, 0, { action: 'USER_DELETED', entityId: userId, adminId }), { email: 'jo@example.com', fullName: 'Jo Bloggs' });
  expectError(t, await api.request('GET', '/v1/auth/me', { key: user }), 401, 'unauthorized');
  t.equal((await books.store.platform.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length, 0);
  expectError(t, await api.request('GET', `/v1/admin/users/${userId}`, { key: admin }), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/admin/users/${userId}`, { key: admin }), 404, 'not_found');
  expectError(t, await api.request('DELETE', `/v1/admin/users/${adminId}`, { key: admin }), 409, 'conflict');
  t.equal((await auditRows(books)).length, 1);
  // The books of the organisation are untouched: its key still works.
  t.equal((await api.request('GET', '/v1/organisation')).status, 200);
});

t.test('one user read: live sessions and the latest changes to them, newest first', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, userId } = await adminAndUser(t, api, books);
  await api.request('POST', `/v1/admin/users/${userId}/unlock`, { key: admin });
  await api.request('PATCH', `/v1/admin/users/${userId}/role`, { key: admin, body: { role: 'admin' } });
  const r = await api.request('GET', `/v1/admin/users/${userId}`, { key: admin });
  t.equal(r.body.data.activeSessions, 1);
  t.same(
    r.body.data.recentActivity.map((a: { action: string }) => a.action),
    ['USER_ROLE_CHANGED', 'USER_UNLOCKED'],
  );
  const log = await api.request('GET', '/v1/admin/audit-log?entityType=user', { key: admin });
  t.same(log.body.meta, { page: 1, perPage: 20, total: 2, pages: 1 });
  t.match(log.body.data[0], {
    action: 'USER_ROLE_CHANGED',
    adminEmail: 'root@example.com',
    entityId: String(userId),
    details: { before: 'user', after: 'admin' },
  });
  t.same((await api.request('GET', '/v1/admin/audit-log?action=USER_UNLOCKED', { key: admin })).body.data.length, 1);
});

t.test('the audit table refuses UPDATE and DELETE at the database, whoever asks', async (t) => {
  const books = await newBooks(t, { clock: start });
  const api = await serveBooks(t, books);
  const { admin, userId } = await adminAndUser(t, api, books);
  await api.request('POST', `/v1/admin/users/${userId}/unlock`, { key: admin });
  const db = books.store.platform.db;
  await t.rejects(
    books.store.platform.write((trx) => trx.updateTable('audit_log').set({ action: 'NOTHING_HAPPENED' }).execute()),
    /append-only/,
  );
  await t.rejects(
    books.store.platform.write((trx) => trx.deleteFrom('audit_log').execute()),
    /append-only/,
  );
  await t.rejects(
    books.store.platform.write((trx) => sql`update audit_log set admin_email = 'someone@else.test'`.execute(trx)),
    /append-only/,
  );
  t.match(await db.selectFrom('audit_log').selectAll().execute(), [{ action: 'USER_UNLOCKED', admin_email: 'root@example.com' }], 'the row is as it was');
});
