/**
 * Every administrator operation, in the registry's order. Their CLI commands
 * are `acct admin …`, and `acct users …` for those on users.
 */
import type { Operation } from '../operation.js';
import { auditLog } from './audit-ops.js';
import { userOperations } from './user-ops.js';
import { organisationOperations } from './org-ops.js';
import { subscriptionOperations } from './billing-ops.js';
import { adminBugReport, adminBugReports, deleteAdminBugReport, deleteAdminBugReports, updateAdminBugReport } from './bug-report-ops.js';
import { adminSettings, updateAdminSetting } from './settings-ops.js';
import { adminSearch, adminStats, clearCache } from './system-ops.js';
import { failedWebhooks, replayWebhooks, systemHealth } from './health-ops.js';

export const adminOperations: readonly Operation[] = [
  auditLog,
  ...organisationOperations,
  ...subscriptionOperations,
  adminBugReports,
  adminBugReport,
  updateAdminBugReport,
  deleteAdminBugReport,
  deleteAdminBugReports,
  adminSettings,
  updateAdminSetting,
  adminStats,
  adminSearch,
  systemHealth,
  failedWebhooks,
  replayWebhooks,
  clearCache,
  ...userOperations,
];
