/**
 * Every presenter, found by the operation it shows. A presenter module
 * imports its area's operations, so the presenters are loaded by area
 * (loadPresenters), and a run that names one group loads only its area's.
 */
import type { Operation } from '../../engine/operation.js';
import type { Presenter } from './index.js';

const areas = {
  ledger: async () => (await import('./ledger.js')).ledgerPresenters,
  reports: async () => (await import('./reports.js')).reportPresenters,
  sales: async () => (await import('./sales.js')).salesPresenters,
  vat: async () => (await import('./vat.js')).vatPresenters,
  banking: async () => (await import('./banking.js')).bankingPresenters,
  platform: async () => (await import('./platform.js')).platformPresenters,
} satisfies Record<string, () => Promise<readonly Presenter[]>>;
type Area = keyof typeof areas;

/**
 * The area holding each operation group's presenters, null for a group
 * with none; a group missing here loads every area (slower, never wrong).
 * test/cli/operation-groups.test.ts checks it against the presenters.
 */
export const presenterAreaOf: Readonly<Record<string, Area | null>> = {
  import: 'ledger',
  accounts: 'ledger',
  transactions: 'ledger',
  report: 'reports',
  contacts: 'sales',
  invoices: 'sales',
  bills: 'sales',
  'credit-notes': 'sales',
  'supplier-credit-notes': 'sales',
  quotes: 'sales',
  vat: 'vat',
  'bank-accounts': 'banking',
  'bank-imports': 'banking',
  bank: 'banking',
  health: null,
  registration: null,
  auth: null,
  'email-verification': null,
  'password-reset': null,
  organisation: null,
  settings: null,
  periods: null,
  keys: null,
  webhooks: null,
  'request-log': null,
  'categorisation-rules': null,
  'contact-imports': null,
  'opening-balances': null,
  'invoice-imports': null,
  'bill-imports': null,
  migrations: null,
  directors: null,
  dla: null,
  dividends: null,
  company: null,
  'bug-reports': 'platform',
  transparency: 'platform',
  'early-access': null,
  admin: null,
};

const byOperation = new Map<string, Presenter>();
const loaded = new Set<Area>();

/** Load the presenters of one operation group's area (none when it has none), or with no group every area's. */
export async function loadPresenters(group?: string): Promise<void> {
  const area = group === undefined ? undefined : presenterAreaOf[group];
  const wanted = area === null ? [] : area === undefined ? (Object.keys(areas) as Area[]) : [area];
  for (const name of wanted) {
    if (loaded.has(name)) continue;
    for (const p of await areas[name]()) byOperation.set(p.operation, p);
    loaded.add(name);
  }
}

/** The presenter of an operation, if it has one; its area must have been loaded. */
export function presenterOf(op: Operation): Presenter | undefined {
  const area = presenterAreaOf[op.cli.group];
  if (area && !loaded.has(area)) throw new Error(`the presenters of ${op.cli.group} are not loaded: await loadPresenters() first`);
  return byOperation.get(op.name);
}
