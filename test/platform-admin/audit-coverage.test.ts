/**
 * Every administrator mutation is audited, and a test says so: the
 * registry's administrator operations other than GET are exactly the routes
 * listed here, each with the test file that checks the audit row it appends.
 * A new administrator mutation fails this test until its audit row is
 * tested and the route added to the list.
 */
import fs from 'node:fs';
import t from 'tap';
import { operations } from '../../src/engine/registry.js';
import { projectFile } from '../../src/paths.js';

/** Route (method and registry path), the file under test/platform-admin/ that checks its audit row, and the action that row has. */
const audited: readonly (readonly [route: string, file: string, action: string])[] = [
  ['PATCH /admin/orgs/{id}', 'orgs.test.ts', 'ORGANISATION_UPDATED'],
  ['DELETE /admin/orgs/{id}', 'orgs.test.ts', 'ORGANISATION_CLOSED'],
  ['POST /admin/orgs/{id}/cancel-subscription', 'subscriptions.test.ts', 'SUBSCRIPTION_CANCELLED'],
  ['POST /admin/orgs/{id}/refund', 'subscriptions.test.ts', 'PAYMENT_REFUNDED'],
  ['POST /admin/orgs/{id}/retry-payment', 'subscriptions.test.ts', 'PAYMENT_RETRIED'],
  ['PATCH /admin/bug-reports/{id}', 'bug-reports.test.ts', 'BUG_REPORT_UPDATED'],
  ['DELETE /admin/bug-reports/{id}', 'bug-reports.test.ts', 'BUG_REPORT_DELETED'],
  ['DELETE /admin/bug-reports', 'bug-reports.test.ts', 'BUG_REPORT_DELETED'],
  ['PATCH /admin/settings/{key}', 'settings.test.ts', 'SETTING_UPDATED'],
  ['POST /admin/system/replay-webhooks', 'system.test.ts', 'WEBHOOKS_REPLAYED'],
  ['POST /admin/system/clear-cache', 'system.test.ts', 'CACHE_CLEARED'],
  ['POST /admin/users/{id}/suspend', 'users.test.ts', 'USER_SUSPENDED'],
  ['POST /admin/users/{id}/unsuspend', 'users.test.ts', 'USER_UNSUSPENDED'],
  ['POST /admin/users/{id}/unlock', 'users.test.ts', 'USER_UNLOCKED'],
  ['POST /admin/users/{id}/disable-mfa', 'users.test.ts', 'MFA_DISABLED'],
  ['PATCH /admin/users/{id}/role', 'users.test.ts', 'USER_ROLE_CHANGED'],
  ['POST /admin/users/{id}/send-reset-link', 'users.test.ts', 'PASSWORD_RESET_SENT'],
  ['POST /admin/users/{id}/impersonate', 'users.test.ts', 'USER_IMPERSONATED'],
  ['DELETE /admin/users/{id}', 'users.test.ts', 'USER_DELETED'],
];

t.test('every administrator operation that is not a GET has its audit row tested', async (t) => {
  const mutations = operations.filter((op) => op.access === 'admin' && op.method !== 'GET').map((op) => `${op.method} ${op.path}`);
  t.ok(mutations.length >= 19, `${mutations.length} administrator mutations`);
  t.same(
    [...mutations].sort(),
    audited.map(([route]) => route).sort(),
    'the administrator mutations of the registry are exactly the audited routes listed here: a new one needs a test of its audit row, then a line here',
  );
  t.equal(new Set(audited.map(([route]) => route)).size, audited.length, 'no route listed twice');
});

t.test('each file listed checks an audit row with the action named', async (t) => {
  for (const [route, file, action] of audited) {
    const text = fs.readFileSync(projectFile(`test/platform-admin/${file}`), 'utf8');
    t.ok(text.includes(`'${action}'`), `${route}: ${file} names ${action}`);
    t.match(text, /\b(newAuditRow|expectAudit|auditRows)\(/, `${route}: ${file} reads the audit log`);
  }
});
