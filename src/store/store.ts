/**
 * The data directory: platform.sqlite and orgs/<uuid>/{live,test}.sqlite,
 * with a small cache of open organisation databases.
 */
import fs from 'node:fs';
import { AppError } from '../engine/errors.js';
import { isOrganisationId, orgDir, orgFile, platformFile, type Mode } from './data-dir.js';
import { makePrivateDir, restrictFile } from './file-modes.js';
import { keyFile, secretBoxOf, type SecretBox } from './secret-box.js';
import { sealPlainSecrets } from './sealed-secrets.js';
import { handleFor, openSqlite, type DbHandle } from './sqlite.js';
import type { OrgDb, PlatformDb } from './tables.js';

export type { DbHandle } from './sqlite.js';
export type { SecretBox } from './secret-box.js';
export { insideWriteTransaction } from './sqlite.js';
export type { Mode } from './data-dir.js';

export interface StoreOptions {
  /** How many organisation databases stay open at once (least recently used are closed). */
  readonly cacheSize?: number;
}

export class Store {
  readonly dataDir: string;
  readonly platform: DbHandle<PlatformDb>;
  /** Seals secrets at rest with the key in the data directory's secret.key. */
  readonly secrets: SecretBox;
  readonly #cacheSize: number;
  readonly #orgs = new Map<string, DbHandle<OrgDb>>();

  private constructor(dataDir: string, platform: DbHandle<PlatformDb>, secrets: SecretBox, options: StoreOptions) {
    this.dataDir = dataDir;
    this.platform = platform;
    this.secrets = secrets;
    this.#cacheSize = options.cacheSize ?? 32;
  }

  /** Open (creating if needed, 0700) the data directory and its platform database. */
  static open(dataDir: string, options: StoreOptions = {}): Store {
    makePrivateDir(dataDir);
    restrictFile(keyFile(dataDir));
    const secrets = secretBoxOf(dataDir);
    const platform = handleFor<PlatformDb>(openSqlite(platformFile(dataDir), 'platform', { create: true }), secrets);
    return new Store(dataDir, platform, secrets, options);
  }

  /** An organisation's database for one mode; 404 when it does not exist. */
  org(orgId: string, mode: Mode): DbHandle<OrgDb> {
    const key = `${orgId}/${mode}`;
    const open = this.#orgs.get(key);
    if (open) {
      this.#orgs.delete(key);
      this.#orgs.set(key, open);
      return open;
    }
    const file = orgFile(this.dataDir, orgId, mode);
    if (!isOrganisationId(orgId) || !fs.existsSync(file)) {
      throw new AppError('not_found', `organisation ${orgId} not found`);
    }
    const database = openSqlite(file, 'org', { create: false });
    try {
      sealPlainSecrets(database, this.secrets);
    } catch (e) {
      database.close();
      throw e;
    }
    const handle = handleFor<OrgDb>(database, this.secrets);
    this.#remember(key, handle);
    return handle;
  }

  /** Create the live and test databases of a new organisation, migrated and empty. */
  createOrg(orgId: string): Record<Mode, DbHandle<OrgDb>> {
    if (!isOrganisationId(orgId)) throw new Error(`not an organisation id: ${orgId}`);
    makePrivateDir(orgDir(this.dataDir, orgId));
    const open = (mode: Mode) => {
      const handle = handleFor<OrgDb>(openSqlite(orgFile(this.dataDir, orgId, mode), 'org', { create: true }), this.secrets);
      this.#remember(`${orgId}/${mode}`, handle);
      return handle;
    };
    return { live: open('live'), test: open('test') };
  }

  #remember(key: string, handle: DbHandle<OrgDb>): void {
    this.#orgs.set(key, handle);
    while (this.#orgs.size > this.#cacheSize) {
      const [oldest, evicted] = this.#orgs.entries().next().value as [string, DbHandle<OrgDb>];
      this.#orgs.delete(oldest);
      void evicted.close();
    }
  }

  async close(): Promise<void> {
    const all = [...this.#orgs.values()];
    this.#orgs.clear();
    await Promise.all(all.map((h) => h.close()));
    await this.platform.close();
  }
}
