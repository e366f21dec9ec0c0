/** Provisioning the UK chart of accounts from fixtures/chart-of-accounts/uk.json: the accounts a new organisation starts with. */
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { newId } from '../ids.js';
import { timestamp, type Clock } from '../clock.js';
import type { BusinessType } from './organisation.js';
import type { AccountsTable, OrgDb } from '../../store/tables.js';
import { projectFile } from '../../paths.js';

export interface ChartEntry {
  readonly code: string;
  readonly name: string;
  readonly type: AccountsTable['account_type'];
  readonly parent?: string;
  readonly description?: string;
  readonly system?: boolean;
  readonly control?: NonNullable<AccountsTable['control_type']>;
  readonly defaultVatRate?: number;
  readonly only?: BusinessType;
  readonly costOfSales?: boolean;
}

let chart: readonly ChartEntry[] | undefined;

export function ukChart(businessType: BusinessType): ChartEntry[] {
  chart ??= (
    JSON.parse(fs.readFileSync(projectFile('fixtures/chart-of-accounts/uk.json'), 'utf8')) as {
      accounts: ChartEntry[];
    }
  ).accounts;
  return chart.filter((a) => a.only === undefined || a.only === businessType);
}

/** Insert the chart; parents are listed before their children in the fixture. */
export async function provisionChart(trx: Kysely<OrgDb>, clock: Clock, businessType: BusinessType): Promise<void> {
  const now = timestamp(clock);
  const idByCode = new Map<string, string>();
  const rows: AccountsTable[] = ukChart(businessType).map((a) => {
    const id = newId('acc', clock.now());
    idByCode.set(a.code, id);
    const parentId = a.parent === undefined ? null : idByCode.get(a.parent);
    if (parentId === undefined) throw new Error(`chart fixture: ${a.code} names parent ${a.parent} before it is defined`);
    if (a.costOfSales && a.type !== 'expense') throw new Error(`chart fixture: ${a.code} is cost of sales but not an expense account`);
    return {
      id,
      code: a.code,
      name: a.name,
      account_type: a.type,
      parent_id: parentId,
      description: a.description ?? null,
      default_vat_rate: a.defaultVatRate ?? null,
      is_active: 1,
      is_system: a.system ? 1 : 0,
      is_control_account: a.control ? 1 : 0,
      control_type: a.control ?? null,
      is_cost_of_sales: a.costOfSales ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
  });
  await trx.insertInto('accounts').values(rows).execute();
}
