/**
 * Maintenance mode (the administrators' maintenance_mode setting): while it
 * is on, a request that would change something is refused with 503 and
 * Retry-After, unless an administrator makes it. Logging in, the second
 * step of a TOTP login, refreshing and logging out still work, so that an
 * administrator can get a session to switch it off; reads are untouched.
 */
import { AppError } from '../engine/errors.js';
import type { Operation, Principal } from '../engine/operation.js';
import { siteSetting } from '../engine/site-settings.js';
import type { DbHandle } from '../store/store.js';
import type { PlatformDb } from '../store/tables.js';

/** Seconds a refused client is asked to wait before trying again. */
export const maintenanceRetryAfter = 300;

/** Operations that open, continue or end a session: allowed during maintenance. */
const sessionOperations = new Set(['auth.login', 'auth.totp-verify', 'auth.refresh', 'auth.logout']);

/** 503 service_unavailable, with the seconds to wait (sent as Retry-After). */
export class UnderMaintenance extends AppError {
  readonly retryAfter = maintenanceRetryAfter;

  constructor() {
    super('service_unavailable', `the service is under maintenance: changes are refused for now (reads still work); retry in ${maintenanceRetryAfter} s`);
  }
}

/**
 * The check a server makes before each request that writes. The setting is
 * read again only when the platform database may have changed (its change
 * stamp), so a switch made by another process (acct admin update-setting)
 * holds from the next request, at the cost of no query while nothing changes.
 */
export class MaintenanceGate {
  readonly #platform: DbHandle<PlatformDb>;
  #stamp = '';
  #on = false;

  constructor(platform: DbHandle<PlatformDb>) {
    this.#platform = platform;
  }

  async check(op: Operation, principal: Principal | null): Promise<void> {
    if (op.method === 'GET' || principal?.admin || sessionOperations.has(op.name)) return;
    const stamp = this.#platform.changeStamp();
    if (stamp !== this.#stamp) {
      this.#on = await siteSetting(this.#platform.db, 'maintenance_mode');
      this.#stamp = stamp;
    }
    if (this.#on) throw new UnderMaintenance();
  }
}
