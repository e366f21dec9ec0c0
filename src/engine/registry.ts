/** Every operation of the engine. The HTTP routes, CLI commands, OpenAPI and man pages come from this list. */
import type { Operation } from './operation.js';
import { health } from './platform/health.js';
import { getOrganisation, updateOrganisation } from './organisation/profile.js';
import { getSettings, updateSettings } from './organisation/settings.js';
import { closePeriodOp, getPeriodOp, listPeriodsOp } from './ledger/periods.js';
import { createKey, listKeys, listScopes, revokeKey, rotateKey } from './integration/api-keys.js';

export const operations: readonly Operation[] = [
  health,
  getOrganisation,
  updateOrganisation,
  getSettings,
  updateSettings,
  listPeriodsOp,
  getPeriodOp,
  closePeriodOp,
  listKeys,
  listScopes,
  createKey,
  rotateKey,
  revokeKey,
];
