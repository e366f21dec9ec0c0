import path from 'node:path';

export type Mode = 'live' | 'test';
export const modes: readonly Mode[] = ['live', 'test'];

/** `--data DIR`, else `$ACCT_DATA`, else `./acct-data`. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(flag ?? env['ACCT_DATA'] ?? 'acct-data');
}

export const platformFile = (dataDir: string): string => path.join(dataDir, 'platform.sqlite');
export const orgDir = (dataDir: string, orgId: string): string => path.join(dataDir, 'orgs', orgId);
export const orgFile = (dataDir: string, orgId: string, mode: Mode): string => path.join(orgDir(dataDir, orgId), `${mode}.sqlite`);

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Organisation ids are UUIDs; checking the shape first keeps ids from naming other paths. */
export const isOrganisationId = (id: string): boolean => uuid.test(id);
