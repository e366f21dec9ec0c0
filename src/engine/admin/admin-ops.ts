/**
 * Every administrator operation, in the registry's order. Their CLI commands
 * are `acct admin …`, and `acct users …` for those on users.
 */
import type { Operation } from '../operation.js';
import { auditLog } from './audit-ops.js';
import { userOperations } from './user-ops.js';
import { organisationOperations } from './org-ops.js';
import { subscriptionOperations } from './billing-ops.js';

export const adminOperations: readonly Operation[] = [auditLog, ...organisationOperations, ...subscriptionOperations, ...userOperations];
