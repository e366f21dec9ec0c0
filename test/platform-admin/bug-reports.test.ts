/**
 * The administrators' bug reports over HTTP: every organisation's, filtered
 * and paged by B (20, at most 100); a status change by the rules of the
 * report's states, with its e-mail to the reporter; deletes one by one and
 * in bulk, all or nothing. Each change writes one audit row; a refused one
 * writes none and changes nothing. And acct admin on the CLI.
 */
import t from 'tap';
import type { Test } from 'tap';
import { movingClock, newBooks, runCliInProcess, serveBooks, type Api, type Books } from '../helpers/index.js';
import { expectError } from '../http/support.js';
import { adminAndUser, auditCount, newAuditRow } from './support.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import { newId } from '../../src/engine/ids.js';
import type { Mailer, MailMessage } from '../../src/engine/mail.js';
import type { AppError } from '../../src/engine/errors.js';

const start = '2026-11-28T10:00:00Z';

function recordingMailer(fail = false): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return {
    sent,
    send: (m) => {
      if (fail) return Promise.reject(new Error('SMTP refused the message'));
      sent.push(m);
      return Promise.resolve();
    },
  };
}

interface Setup {
  readonly books: Books;
  readonly api: Api;
  readonly admin: string;
  readonly adminId: number;
  readonly other: { readonly organisationId: string; readonly apiKey: string };
  /** Submit a report (as the user, else with the other organisation's key), a minute after the last. */
  submit(body: Record<string, unknown>, key?: string): Promise<Record<string, unknown>>;
}

async function setUp(t: Test, options: { mailer?: Mailer; onLogError?: (e: AppError) => void } = {}): Promise<Setup> {
  const clock = movingClock(start);
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books, {
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.onLogError ? { onLogError: options.onLogError } : {}),
  });
  const { admin, adminId, user } = await adminAndUser(t, api, books);
  const other = await createOrganisation(books.store, clock, { name: 'Other Ltd', businessType: 'sole_trader', vatScheme: 'not_registered' });
  return {
    books,
    api,
    admin,
    adminId,
    other,
    submit: async (body, key = user) => {
      clock.advance(60_000);
      const r = await api.request('POST', '/v1/bug-reports', { key, body: { description: 'What happened, in detail.', ...body } });
      t.equal(r.status, 201, `submitted ${String(body['title'])}`);
      return r.body.data as Record<string, unknown>;
    },
  };
}

const reportIn = (books: Books, id: string) => books.store.platform.db.selectFrom('bug_reports').selectAll().where('id', '=', id).executeTakeFirst();

t.test("every organisation's reports, newest first, filtered, with organisation, notes and description; pagination B", async (t) => {
  const s = await setUp(t);
  const a = await s.submit({ title: 'VAT box 6 is empty', severity: 'critical' });
  const b = await s.submit({ title: 'Logo is blurry', severity: 'low' }, s.other.apiKey);
  const c = await s.submit({ title: 'VAT return rounding', severity: 'high' }, s.other.apiKey);

  const all = await s.api.request('GET', '/v1/admin/bug-reports', { key: s.admin });
  t.equal(all.status, 200);
  t.same(
    all.body.data.map((r: { id: string }) => r.id),
    [c['id'], b['id'], a['id']],
    'newest first, across organisations',
  );
  t.same(all.body.meta, { page: 1, perPage: 20, total: 3, pages: 1 });
  t.match(all.body.data[2], {
    id: a['id'],
    organisationId: s.books.organisationId,
    mode: 'live',
    reportedBy: `usr_${2}`,
    adminNotes: null,
    description: 'What happened, in detail.',
    status: 'open',
  });
  t.equal(all.body.data[0].organisationId, s.other.organisationId);
  t.match(all.body.data[0].reportedBy, /^key_/, 'submitted with an API key');

  const ids = async (query: string) =>
    (await s.api.request('GET', `/v1/admin/bug-reports?${query}`, { key: s.admin })).body.data.map((r: { id: string }) => r.id) as string[];
  t.same(await ids(`organisationId=${s.other.organisationId}`), [c['id'], b['id']], 'by organisation');
  t.same(await ids('severity=critical'), [a['id']], 'by severity');
  t.same(await ids('search=vat'), [c['id'], a['id']], 'by text in the title, ignoring case');
  t.same(await ids('status=resolved'), [], 'by status');

  const paged = await s.api.request('GET', '/v1/admin/bug-reports?perPage=2&page=2', { key: s.admin });
  t.same(
    paged.body.data.map((r: { id: string }) => r.id),
    [a['id']],
  );
  t.same(paged.body.meta, { page: 2, perPage: 2, total: 3, pages: 2 });
  // Pagination B: perPage 1 to 100, as the specification gives it for every administrator list.
  t.equal((await s.api.request('GET', '/v1/admin/bug-reports?perPage=100', { key: s.admin })).status, 200, '100 a page is allowed');
  expectError(t, await s.api.request('GET', '/v1/admin/bug-reports?perPage=101', { key: s.admin }), 400, 'validation_error', { field: 'perPage' });

  const one = await s.api.request('GET', `/v1/admin/bug-reports/${String(b['id'])}`, { key: s.admin });
  t.same(one.body.data, all.body.data[1], 'one report reads as it lists');
  expectError(t, await s.api.request('GET', `/v1/admin/bug-reports/${newId('bug')}`, { key: s.admin }), 404, 'not_found');
});

t.test('PATCH: any status; closing sets resolvedAt and e-mails the reporter; reopening clears it; each change audited with before and after', async (t) => {
  const mailer = recordingMailer();
  const s = await setUp(t, { mailer });
  const report = await s.submit({ title: 'VAT box 6 is empty' });
  const path = `/v1/admin/bug-reports/${String(report['id'])}`;
  const patch = (body: unknown) => s.api.request('PATCH', path, { key: s.admin, body });
  const expected = {
    adminId: s.adminId,
    adminEmail: 'root@example.com',
    action: 'BUG_REPORT_UPDATED',
    entityType: 'bug_report',
    entityId: String(report['id']),
  };

  let before = await auditCount(s.books);
  const ack = await patch({ status: 'acknowledged', adminNotes: 'Looking at it' });
  t.equal(ack.status, 200);
  t.match(ack.body.data, { status: 'acknowledged', adminNotes: 'Looking at it', resolvedAt: null });
  t.same(await newAuditRow(t, s.books, before, { ...expected, method: 'PATCH', path: `/v1/admin/bug-reports/${String(report['id'])}` }), {
    request: { method: 'PATCH', path: `/v1/admin/bug-reports/${String(report['id'])}` },
    before: { status: 'open', severity: 'medium', adminNotes: null, resolvedAt: null },
    after: { status: 'acknowledged', severity: 'medium', adminNotes: 'Looking at it', resolvedAt: null },
  });
  t.equal(mailer.sent.length, 0, 'no e-mail for a state that is not closed');

  before = await auditCount(s.books);
  const resolved = await patch({ status: 'resolved', severity: 'high' });
  t.match(resolved.body.data, { status: 'resolved', severity: 'high', resolvedAt: '2026-11-28T10:01:00.000Z', adminNotes: 'Looking at it' });
  const details = await newAuditRow(t, s.books, before, { ...expected, method: 'PATCH', path: `/v1/admin/bug-reports/${String(report['id'])}` });
  t.match(details, {
    before: { status: 'acknowledged', resolvedAt: null },
    after: { status: 'resolved', severity: 'high', resolvedAt: '2026-11-28T10:01:00.000Z' },
  });
  t.equal(mailer.sent.length, 1, 'the reporter is e-mailed');
  t.match(mailer.sent[0], { to: 'jo@example.com', subject: 'Your bug report: VAT box 6 is empty' });
  t.match(mailer.sent[0]?.text, /is resolved/);

  const dup = await patch({ status: 'duplicate' });
  t.equal(dup.body.data.resolvedAt, '2026-11-28T10:01:00.000Z', 'from one closed state to another: resolvedAt stands');
  t.equal(mailer.sent.length, 1, 'and no second e-mail');

  const reopened = await patch({ status: 'investigating', adminNotes: '' });
  t.match(reopened.body.data, { status: 'investigating', resolvedAt: null, adminNotes: null }, 'reopening clears resolvedAt; empty notes clear them');

  const stored = await reportIn(s.books, String(report['id']));
  t.match(stored, { status: 'investigating', severity: 'high', resolved_at: null, admin_notes: null });
});

t.test('refused PATCHes write no audit row and change nothing', async (t) => {
  const s = await setUp(t);
  const report = await s.submit({ title: 'VAT box 6 is empty' });
  const path = `/v1/admin/bug-reports/${String(report['id'])}`;
  const row = await reportIn(s.books, String(report['id']));
  const before = await auditCount(s.books);
  expectError(t, await s.api.request('PATCH', path, { key: s.admin, body: { adminNotes: 'x'.repeat(5001) } }), 400, 'validation_error', {
    field: 'adminNotes',
  });
  expectError(t, await s.api.request('PATCH', path, { key: s.admin, body: { status: 'closed' } }), 400, 'validation_error', { field: 'status' });
  expectError(t, await s.api.request('PATCH', path, { key: s.admin, body: {} }), 400, 'validation_error');
  expectError(t, await s.api.request('PATCH', `/v1/admin/bug-reports/${newId('bug')}`, { key: s.admin, body: { status: 'resolved' } }), 404, 'not_found');
  t.equal(await auditCount(s.books), before, 'no audit row');
  t.same(await reportIn(s.books, String(report['id'])), row, 'the report as it was');
});

t.test('the e-mail goes only to a user; a failed e-mail is logged and the change stands', async (t) => {
  const logged: AppError[] = [];
  const s = await setUp(t, { mailer: recordingMailer(true), onLogError: (e) => logged.push(e) });
  const byUser = await s.submit({ title: 'VAT box 6 is empty' });
  const r = await s.api.request('PATCH', `/v1/admin/bug-reports/${String(byUser['id'])}`, { key: s.admin, body: { status: 'wont_fix' } });
  t.equal(r.status, 200, 'the change stands');
  t.equal(r.body.data.status, 'wont_fix');
  t.equal(logged.length, 1, 'the failure is logged');
  t.match(logged[0]?.message, /e-mail to the reporter of bug report .* failed: SMTP refused/);

  const byKey = await s.submit({ title: 'Logo is blurry' }, s.other.apiKey);
  const quiet = recordingMailer();
  const s2 = await serveBooks(t, s.books, { mailer: quiet });
  t.equal((await s2.request('PATCH', `/v1/admin/bug-reports/${String(byKey['id'])}`, { key: s.admin, body: { status: 'resolved' } })).status, 200);
  t.equal(quiet.sent.length, 0, 'a report made with an API key has no one to e-mail');
});

t.test('DELETE one report: audited with what it was; an unknown id is 404 and writes nothing', async (t) => {
  const s = await setUp(t);
  const report = await s.submit({ title: 'VAT box 6 is empty' });
  const id = String(report['id']);
  let before = await auditCount(s.books);
  expectError(t, await s.api.request('DELETE', `/v1/admin/bug-reports/${newId('bug')}`, { key: s.admin }), 404, 'not_found');
  t.equal(await auditCount(s.books), before);

  const r = await s.api.request('DELETE', `/v1/admin/bug-reports/${id}`, { key: s.admin });
  t.same(r.body.data, { id, deleted: true });
  t.equal(await reportIn(s.books, id), undefined, 'gone');
  const details = await newAuditRow(t, s.books, before, {
    adminId: s.adminId,
    adminEmail: 'root@example.com',
    action: 'BUG_REPORT_DELETED',
    entityType: 'bug_report',
    entityId: id,
    method: 'DELETE',
    path: `/v1/admin/bug-reports/${id}`,
  });
  t.match(details, { report: { title: 'VAT box 6 is empty', organisationId: s.books.organisationId, status: 'open', severity: 'medium' } });
  before = await auditCount(s.books);
  expectError(t, await s.api.request('DELETE', `/v1/admin/bug-reports/${id}`, { key: s.admin }), 404, 'not_found', { message: /not found/ });
  t.equal(await auditCount(s.books), before);
});

t.test('bulk DELETE: all or nothing; one audit row per report deleted', async (t) => {
  const s = await setUp(t);
  const a = String((await s.submit({ title: 'First report' }))['id']);
  const b = String((await s.submit({ title: 'Second report' }, s.other.apiKey))['id']);
  const c = String((await s.submit({ title: 'Third report' }))['id']);
  const before = await auditCount(s.books);
  const unknown = newId('bug');
  expectError(t, await s.api.request('DELETE', '/v1/admin/bug-reports', { key: s.admin, body: { ids: [a, unknown] } }), 404, 'not_found', {
    message: new RegExp(`${unknown}.*nothing was deleted`),
  });
  expectError(t, await s.api.request('DELETE', '/v1/admin/bug-reports', { key: s.admin, body: { ids: [] } }), 400, 'validation_error', { field: 'ids' });
  expectError(
    t,
    await s.api.request('DELETE', '/v1/admin/bug-reports', { key: s.admin, body: { ids: Array.from({ length: 101 }, () => a) } }),
    400,
    'validation_error',
    {
      field: 'ids',
    },
  );
  t.ok(await reportIn(s.books, a), 'nothing deleted');
  t.equal(await auditCount(s.books), before, 'and nothing audited');

  const r = await s.api.request('DELETE', '/v1/admin/bug-reports', { key: s.admin, body: { ids: [a, b, a] } });
  t.same(r.body.data, { ids: [a, b], deleted: 2 }, 'an id given twice counts once');
  t.equal(await reportIn(s.books, a), undefined);
  t.equal(await reportIn(s.books, b), undefined);
  t.ok(await reportIn(s.books, c), 'the others stay');
  const rows = (await s.books.store.platform.db.selectFrom('audit_log').selectAll().orderBy('id').execute()).slice(before);
  t.same(
    rows.map((row) => [row.action, row.entity_type, row.entity_id, JSON.parse(row.details).request, JSON.parse(row.details).bulk]),
    [
      ['BUG_REPORT_DELETED', 'bug_report', a, { method: 'DELETE', path: '/v1/admin/bug-reports' }, { count: 2 }],
      ['BUG_REPORT_DELETED', 'bug_report', b, { method: 'DELETE', path: '/v1/admin/bug-reports' }, { count: 2 }],
    ],
  );
});

t.test('acct admin bug-reports and update-bug-report: the local operator, audited as local:<user>', async (t) => {
  const s = await setUp(t);
  const report = await s.submit({ title: 'VAT box 6 is empty' });
  const id = String(report['id']);
  const list = await runCliInProcess(['--data', s.books.dataDir, '--json', 'admin', 'bug-reports', '--status', 'open']);
  t.equal(list.status, 0, list.stderr);
  t.same(
    (JSON.parse(list.stdout) as { id: string }[]).map((r) => r.id),
    [id],
  );
  const before = await auditCount(s.books);
  const update = await runCliInProcess(['--data', s.books.dataDir, '--json', 'admin', 'update-bug-report', id, '--status', 'resolved']);
  t.equal(update.status, 0, update.stderr);
  t.match(JSON.parse(update.stdout), { id, status: 'resolved', resolvedAt: String });
  const details = await newAuditRow(t, s.books, before, {
    adminId: null,
    adminEmail: /^local:.+/,
    action: 'BUG_REPORT_UPDATED',
    entityType: 'bug_report',
    entityId: id,
    method: 'PATCH',
    path: 'acct admin update-bug-report',
  });
  t.match(details, { after: { status: 'resolved' } });
  const missing = await runCliInProcess(['--data', s.books.dataDir, 'admin', 'bug-report', newId('bug')]);
  t.equal(missing.status, 3, 'not found: exit 3');
});
