/** The public transparency endpoints: titles, states and dates only, never what is private to a report; counts and the median time to resolve. */
import t from 'tap';
import { eventually, newBooks, serveBooks, type Books } from '../helpers/index.js';
import { createOrganisation } from '../../src/engine/organisation/provision.js';
import type { BugReportsTable } from '../../src/store/tables.js';

const clock = '2026-11-21T10:00:00Z';

t.test('entries: public titles, severities, states and dates; no description, organisation, page, browser or API context', async (t) => {
  const books = await newBooks(t, { clock });
  const api = await serveBooks(t, books);
  await api.request('GET', '/v1/contacts');
  // The request log's next batch (some 250 ms later; longer on a loaded machine), read from the database so as not to add to it.
  const log = books.store.org(books.organisationId, 'live').db;
  await eventually(
    () => log.selectFrom('request_log').select('id').execute(),
    (rows) => rows.length >= 1,
  );
  const secret = {
    title: 'Box 6 shows nothing',
    description: 'PRIVATE-DESCRIPTION of client Smith & Co',
    severity: 'critical',
    pageUrl: 'https://app.example.com/PRIVATE-PAGE',
    browserInfo: { userAgent: 'PRIVATE-AGENT', language: 'cy-GB' },
    includeApiContext: true,
  };
  const submitted = await api.request('POST', '/v1/bug-reports', { body: secret });
  t.ok(submitted.body.data.apiContext.length > 0, 'the report holds API context');
  await api.request('POST', '/v1/bug-reports', { body: { title: 'Sandbox only', description: 'made with a test key' }, key: books.testApiKey });

  const r = await api.request('GET', '/v1/transparency/entries', { key: null });
  t.equal(r.status, 200);
  t.same(r.body.data, [
    { id: submitted.body.data.id, title: 'Box 6 shows nothing', severity: 'critical', status: 'open', createdAt: '2026-11-21T10:00:00.000Z', resolvedAt: null },
  ]);
  t.same(r.body.meta, { total: 1, page: 1, limit: 20, hasMore: false }, 'a test key’s report is not public');
  for (const leak of ['PRIVATE', 'cy-GB', books.organisationId, 'sk_live_', '/v1/contacts', 'Sandbox']) {
    t.notOk(r.text.includes(leak), `the answer does not hold ${leak}`);
  }
  const stats = await api.request('GET', '/v1/transparency/stats', { key: null });
  for (const leak of ['PRIVATE', books.organisationId, 'Box 6']) t.notOk(stats.text.includes(leak), `the statistics do not hold ${leak}`);

  const filtered = await api.request('GET', '/v1/transparency/entries?status=resolved', { key: null });
  t.same(filtered.body.data, []);
  t.equal((await api.request('GET', '/v1/transparency/entries?status=open', { key: null })).body.meta.total, 1);
});

/** Reports as an operator would leave them (this branch has no administrator endpoints to move them). */
async function insertReports(books: Books, reports: readonly Partial<BugReportsTable>[]): Promise<void> {
  await books.store.platform.write(async (trx) => {
    let n = 0;
    for (const r of reports) {
      n += 1;
      await trx
        .insertInto('bug_reports')
        .values({
          id: `bug_${String(n).padStart(4, '0')}`,
          organisation_id: books.organisationId,
          mode: 'live',
          title: `Report ${n}`,
          description: 'private',
          severity: 'medium',
          status: 'open',
          page_url: null,
          browser_info: null,
          api_context: null,
          admin_notes: null,
          reported_by: 'test',
          created_at: '2026-11-01T00:00:00.000Z',
          updated_at: '2026-11-01T00:00:00.000Z',
          resolved_at: null,
          ...r,
        })
        .execute();
    }
  });
}

t.test('statistics: counts by state and severity, the median hours to resolve over resolved reports only', async (t) => {
  const books = await newBooks(t, { clock });
  const other = await createOrganisation(books.store, books.clock, { name: 'Other Ltd', businessType: 'sole_trader', vatScheme: 'not_registered' });
  const api = await serveBooks(t, books);

  const empty = await api.request('GET', '/v1/transparency/stats', { key: null });
  t.same(empty.body.data, {
    total: 0,
    byStatus: { open: 0, acknowledged: 0, investigating: 0, resolved: 0, wont_fix: 0, duplicate: 0 },
    bySeverity: { critical: 0, high: 0, medium: 0, low: 0 },
    medianResolutionHours: null,
  });

  const resolved = (hours: number) => ({
    status: 'resolved' as const,
    resolved_at: new Date(Date.parse('2026-11-01T00:00:00Z') + hours * 3_600_000).toISOString(),
  });
  await insertReports(books, [
    { severity: 'critical', ...resolved(2) },
    { severity: 'high', ...resolved(10) },
    { severity: 'high', ...resolved(4), organisation_id: other.organisationId },
    { severity: 'low', status: 'wont_fix', resolved_at: '2026-11-01T00:30:00.000Z' },
    { severity: 'low', status: 'duplicate', resolved_at: '2026-11-01T00:15:00.000Z' },
    { severity: 'medium', status: 'investigating' },
    { severity: 'medium' },
    { severity: 'critical', mode: 'test', ...resolved(100) },
  ]);
  const r = await api.request('GET', '/v1/transparency/stats', { key: null });
  // Live reports of every organisation: 7. Resolved after 2, 4 and 10 hours: the median is 4 (wont_fix and duplicate, and the test report, are not counted).
  t.same(r.body.data, {
    total: 7,
    byStatus: { open: 1, acknowledged: 0, investigating: 1, resolved: 3, wont_fix: 1, duplicate: 1 },
    bySeverity: { critical: 1, high: 2, medium: 2, low: 2 },
    medianResolutionHours: 4,
  });

  await insertReports(books, [{ id: 'bug_0100', severity: 'low', ...resolved(7.25) }]);
  // 2, 4, 7.25, 10: the mean of the middle two, 5.625, to 0.1 h.
  t.equal((await api.request('GET', '/v1/transparency/stats', { key: null })).body.data.medianResolutionHours, 5.6);

  const entries = await api.request('GET', '/v1/transparency/entries?limit=2', { key: null });
  t.same(entries.body.meta, { total: 8, page: 1, limit: 2, hasMore: true }, 'reports of every organisation, test reports left out');
  t.equal(entries.body.data[0].resolvedAt !== undefined, true);
});
