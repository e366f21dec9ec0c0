/**
 * Maintenance mode (the administrators' maintenance_mode setting): while it
 * is on, a request that would change something is refused with 503 and
 * Retry-After, unless an administrator makes it. Logging in, the second
 * step of a TOTP login, refreshing and logging out still work, so that an
 * administrator can get a session to switch it off; reads are untouched.
 */
import { AppError } from '../engine/errors.js';
import type { Operation, Principal } from '../engine/operation.js';
import { WatchedSetting } from '../engine/site-settings.js';
import type { Store } from '../store/store.js';

/** Seconds a refused client is asked to wait before trying again. */
export const maintenanceRetryAfter = 300;

/** Operations that open, continue or end a session: allowed during maintenance. */
const sessionOperations = new Set(['auth.login', 'auth.totp-verify', 'auth.refresh', 'auth.logout']);

/** 503 service_unavailable, with the seconds to wait (sent as Retry-After). */
export class UnderMaintenance extends AppError {
  override readonly retryAfter = maintenanceRetryAfter;

  constructor() {
    super('service_unavailable', `the service is under maintenance: changes are refused for now (reads still work); retry in ${maintenanceRetryAfter} s`);
  }
}

/** The check a server makes before each request: refuses one that writes, while the setting is on, unless it may go on. */
export class MaintenanceGate {
  readonly #setting: WatchedSetting<'maintenance_mode'>;

  constructor(platform: Store['platform']) {
    this.#setting = new WatchedSetting(platform, 'maintenance_mode');
  }

  async check(op: Operation, principal: Principal | null): Promise<void> {
    if (op.method === 'GET' || principal?.admin || sessionOperations.has(op.name)) return;
    if (await this.#setting.value()) throw new UnderMaintenance();
  }
}
