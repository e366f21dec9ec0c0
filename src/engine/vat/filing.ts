/**
 * Filing a VAT return: its figures are frozen in vat_returns, the entries
 * it counted are stamped with it (posting then refuses to change or remove
 * their transactions: 422 vat_return_filed), and a settlement journal dated
 * the period's last day moves the VAT of those entries from the accounts
 * holding it to 2202 VAT Liability (box 3 − box 4: a credit when payable, a
 * debit when repayable), the flat-rate surplus going to 4300. Paying HMRC
 * is then a payment against 2202. Periods are filed in order (skipping
 * only earlier ones with nothing in them), each only after it has ended.
 * Raises vat.submitted.
 */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { emit } from '../events.js';
import { newId } from '../ids.js';
import { timestamp, today } from '../clock.js';
import { sterling } from '../money.js';
import { addDays } from '../dates.js';
import { loadOrganisation, type OrganisationRow } from '../organisation/organisation.js';
import { createTransaction, type LineInput, type Posting } from '../ledger/posting.js';
import type { VatPeriod } from './periods.js';
import { draftReturn, filedView, firstStart, periodOf, refuseIncomplete, registration, waitingFor, type Draft, type VatReturnView } from './returns.js';
import type { OrgDb, VatReturnsTable } from '../../store/tables.js';

async function accountId(trx: Kysely<OrgDb>, code: string): Promise<string> {
  const row = await trx.selectFrom('accounts').select('id').where('code', '=', code).executeTakeFirst();
  if (!row) throw new AppError('unprocessable_entity', `the chart has no account ${code}, which filing a VAT return posts to`);
  return row.id;
}

/** The settlement journal's lines: each VAT-holding account cleared, 2202 and 4300 taking the rest. */
async function settlementLines(trx: Kysely<OrgDb>, d: Draft): Promise<LineInput[]> {
  const { boxes, settlement, flatRateSurplus } = d.derived;
  const lines: LineInput[] = [...settlement].map(([account, amount]) => ({ accountId: account, amount, description: 'VAT of the return' }));
  const owed = boxes.box3 - boxes.box4;
  if (owed !== 0) lines.push({ accountId: await accountId(trx, '2202'), amount: -owed, description: owed > 0 ? 'VAT owed to HMRC' : 'VAT repayable by HMRC' });
  if (flatRateSurplus !== 0) lines.push({ accountId: await accountId(trx, '4300'), amount: -flatRateSurplus, description: 'Flat rate scheme surplus' });
  return lines;
}

/** Periods are filed in order: an earlier period not filed that holds VAT entries not yet filed comes first. */
async function refuseOutOfOrder(trx: Kysely<OrgDb>, org: OrganisationRow, start: string, period: VatPeriod, lastDay: string | null): Promise<void> {
  const waiting = await waitingFor(trx, org, start, period, lastDay);
  if (waiting) {
    const { first } = waiting;
    throw new AppError(
      'vat_period_out_of_order',
      `file the VAT period ${first.start} to ${first.end} (${first.key}) first: it holds VAT entries not yet filed, and periods are filed in order`,
    );
  }
}

export async function fileReturn(trx: Kysely<OrgDb>, posting: Posting, key: string): Promise<VatReturnView> {
  const { org, lastDay } = await registration(trx, await loadOrganisation(trx));
  const period = await periodOf(trx, org, posting.clock, key, lastDay);
  const filed = await trx.selectFrom('vat_returns').select('id').where('period_end', '=', period.end).executeTakeFirst();
  if (filed) throw new AppError('already_filed', `the VAT return for ${period.start} to ${period.end} is already filed (${filed.id})`);
  const now = today(posting.clock);
  if (now <= period.end)
    throw new AppError(
      'vat_period_not_ended',
      `the VAT period ${period.start} to ${period.end} has not ended: file it from ${addDays(period.end, 1)} onwards, the day after it ends`,
    );
  const start = await firstStart(trx, org, posting.clock);
  await refuseOutOfOrder(trx, org, start, period, lastDay);
  await refuseIncomplete(trx, period.start, period.end);
  const draft = await draftReturn(trx, org, posting.clock, period);
  const id = newId('vatr', posting.clock.now());
  const lines = await settlementLines(trx, draft);
  const { boxes, exact } = draft.derived;
  const txn =
    lines.length >= 2
      ? await createTransaction(trx, posting, {
          date: period.end,
          description: `VAT return ${period.start} to ${period.end}: ${draft.derived.direction === 'repayable' ? 'repayable' : 'owed'} ${sterling(boxes.box5)}`,
          reference: `VAT ${period.key}`,
          status: 'posted',
          sourceType: 'vat_return',
          sourceId: id,
          lines,
        })
      : null;
  const row: VatReturnsTable = {
    id,
    period_start: period.start,
    period_end: period.end,
    due_date: period.due,
    scheme: draft.org.vat_scheme,
    basis: draft.basis,
    flat_rate_bp: draft.org.vat_scheme === 'flat_rate' ? draft.org.vat_flat_rate_bp : null,
    ...boxes,
    net_vat_direction: draft.derived.direction,
    exact_box6: exact.box6,
    exact_box7: exact.box7,
    exact_box8: exact.box8,
    exact_box9: exact.box9,
    flat_rate_surplus: draft.derived.flatRateSurplus,
    flat_rates: draft.derived.flatRates && JSON.stringify(draft.derived.flatRates),
    transaction_id: txn?.id ?? null,
    filed_at: timestamp(posting.clock),
    filed_by: posting.actor.id,
    submitted_at: null,
    submission: null,
  };
  await trx.insertInto('vat_returns').values(row).execute();
  // Stamp in slices: SQLite limits the variables of one statement.
  for (let i = 0; i < draft.ids.length; i += 500) {
    await trx
      .updateTable('vat_entries')
      .set({ return_id: id })
      .where('id', 'in', draft.ids.slice(i, i + 500))
      .execute();
  }
  const view = filedView(row);
  await emit(trx, posting.clock, 'vat.submitted', view);
  return view;
}
