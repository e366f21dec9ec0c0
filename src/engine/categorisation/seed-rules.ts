/**
 * The seed ("verified") rules of a new organisation, written into its books
 * at set-up from the shipped file, over its chart: a seed naming a code the
 * chart lacks is left out. Here, beside the scorer rather than with the
 * rules' operations (banking), so that organisation set-up needs nothing
 * above it.
 */
import type { Kysely } from 'kysely';
import { timestamp, type Clock } from '../clock.js';
import { seedRules } from './shipped-rules.js';
import type { OrgDb } from '../../store/tables.js';

export async function provisionSeedRules(trx: Kysely<OrgDb>, clock: Clock): Promise<void> {
  const codes = new Map((await trx.selectFrom('accounts').select(['id', 'code']).execute()).map((a) => [a.code, a.id]));
  const now = timestamp(clock);
  const rows = seedRules().flatMap((s) => {
    const target = codes.get(s.targetAccountCode);
    if (target === undefined) return [];
    return [
      {
        name: s.name,
        description: null,
        field: s.field,
        operator: s.operator,
        value: s.value,
        target_account_id: target,
        priority: s.priority,
        is_active: s.active ? 1 : 0,
        is_seed: 1,
        created_at: now,
        updated_at: now,
      },
    ];
  });
  if (rows.length > 0) await trx.insertInto('categorisation_rules').values(rows).execute();
}
