/** The presenters of the platform's lists: bug reports, the public transparency entries, and the administrators' users and audit log. */
import { listBugReports } from '../../engine/platform/bug-reports.js';
import { transparencyEntries } from '../../engine/platform/transparency.js';
import { listUsers } from '../../engine/admin/user-ops.js';
import { auditLog } from '../../engine/admin/audit-ops.js';
import { adminOrganisations } from '../../engine/admin/org-ops.js';
import { listPresenter, type Presenter } from './index.js';

const day = (at: string | null): string | null => (at === null ? null : at.slice(0, 10));

export const platformPresenters: readonly Presenter[] = [
  listPresenter(listBugReports, 'Bug reports', [
    ['id', 'id'],
    ['reported', 'createdAt', day],
    ['severity', 'severity'],
    ['status', 'status'],
    ['title', 'title'],
    ['resolved', 'resolvedAt', day],
  ]),
  listPresenter(listUsers, 'Users', [
    ['id', 'id'],
    ['e-mail', 'email'],
    ['name', 'fullName'],
    ['organisation', 'organisation', (o: { name: string }) => o.name],
    ['role', 'role'],
    ['status', 'status'],
    ['TOTP', 'totpEnabled', (on: boolean) => (on ? 'on' : 'off')],
    ['last login', 'lastLogin', day],
  ]),
  listPresenter(adminOrganisations, 'Organisations', [
    ['id', 'id'],
    ['name', 'name'],
    ['plan', 'plan'],
    ['status', 'subscriptionStatus'],
    ['trial ends', 'trialEndsAt', day],
    ['users', 'userCount'],
    ['invoices', 'invoiceCount'],
    ['created', 'createdAt', day],
  ]),
  listPresenter(auditLog, 'Audit log', [
    ['at', 'createdAt', (at: string) => at.slice(0, 19).replace('T', ' ')],
    ['administrator', 'adminEmail'],
    ['action', 'action'],
    ['entity', 'entityType'],
    ['id', 'entityId'],
    ['address', 'ipAddress'],
  ]),
  listPresenter(transparencyEntries, 'Reported bugs', [
    ['reported', 'createdAt', day],
    ['severity', 'severity'],
    ['status', 'status'],
    ['title', 'title'],
    ['resolved', 'resolvedAt', day],
  ]),
];
