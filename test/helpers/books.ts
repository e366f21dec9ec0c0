/** A fresh data directory holding one organisation, opened in-process: the start of most tests. */
import type { Test } from 'tap';
import { createOrganisation, type NewOrganisation } from '../../src/engine/organisation/provision.js';
import { scopes, type Scope } from '../../src/engine/scopes.js';
import type { Ctx, Principal } from '../../src/engine/operation.js';
import type { Mode } from '../../src/store/data-dir.js';
import type { Store } from '../../src/store/store.js';
import { openTestStore } from './test-store.js';
import { fixedClock, systemClock, type Clock } from './clock.js';

export const defaultOrganisation: NewOrganisation = {
  name: 'Acme Widgets Ltd',
  businessType: 'limited_company',
  vatScheme: 'standard',
};

export interface Books {
  readonly dataDir: string;
  readonly store: Store;
  readonly clock: Clock;
  readonly organisationId: string;
  readonly apiKey: string;
  readonly testApiKey: string;
  /** An in-process context, as the CLI would build it (all scopes unless given). */
  ctx(options?: { mode?: Mode; scopes?: readonly Scope[] }): Ctx;
}

/** A new data directory holding one organisation, closed when the test ends. */
export async function newBooks(t: Test, options: { organisation?: Partial<NewOrganisation>; clock?: Clock | string } = {}): Promise<Books> {
  const dataDir = t.testdir();
  const clock = typeof options.clock === 'string' ? fixedClock(options.clock) : (options.clock ?? systemClock);
  const store = await openTestStore(t, dataDir);
  const created = await createOrganisation(store, clock, { ...defaultOrganisation, ...options.organisation });
  return {
    dataDir,
    store,
    clock,
    ...created,
    ctx: ({ mode = 'live', scopes: held = scopes } = {}) => {
      const principal: Principal = { organisationId: created.organisationId, mode, scopes: held, keyId: null, actor: { id: 'cli', name: 'test' } };
      return { clock, store, platform: store.platform, principal };
    },
  };
}
