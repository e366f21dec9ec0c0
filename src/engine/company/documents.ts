/**
 * The dividend voucher and the board minutes as documents: their data
 * gathered from the books (the company from the organisation profile, the
 * shareholder from the directors, the allocations from the dividends
 * declared under the minutes), rendered by src/pdf/voucher.ts and
 * minutes.ts, loaded on first use (pdfmake is large).
 */
import type { Kysely } from 'kysely';
import { loadOrganisation } from '../organisation/organisation.js';
import { addressLines } from '../../pdf/format.js';
import type { MinutesData, PdfCompany, VoucherData } from '../../pdf/voucher-data.js';
import { findDirector } from './directors.js';
import { findDividend, findMinutes } from './dividends.js';
import type { OrgDb } from '../../store/tables.js';

async function companyOf(db: Kysely<OrgDb>): Promise<PdfCompany> {
  const org = await loadOrganisation(db);
  return { name: org.name, companyNumber: org.company_number, address: addressLines(org) };
}

export async function voucherData(db: Kysely<OrgDb>, id: string): Promise<VoucherData> {
  const row = await findDividend(db, id);
  const director = await findDirector(db, row.director_id);
  const minutes = await findMinutes(db, row.board_minutes_id);
  return {
    company: await companyOf(db),
    voucherNumber: row.voucher_number,
    status: row.status,
    shareholder: { name: director.full_name, address: director.address },
    shareClass: row.share_class,
    sharesHeld: row.shares_held,
    amountPence: row.amount,
    declaredDate: row.date_declared,
    paidDate: row.date_paid,
    paymentMethod: row.payment_method,
    resolution: { reference: minutes.resolution_ref, minutesDate: minutes.date },
    voidedDate: row.voided_at?.slice(0, 10) ?? null,
  };
}

export async function minutesData(db: Kysely<OrgDb>, id: string): Promise<MinutesData> {
  const row = await findMinutes(db, id);
  const ids = JSON.parse(row.attendees_json) as string[];
  const names = new Map(
    (
      await db
        .selectFrom('directors')
        .select(['id', 'full_name'])
        .where('id', 'in', [...ids, row.chair_id])
        .execute()
    ).map((d) => [d.id, d.full_name]),
  );
  const allocations = await db
    .selectFrom('dividends')
    .innerJoin('directors', 'directors.id', 'dividends.director_id')
    .select(['directors.full_name', 'dividends.share_class', 'dividends.shares_held', 'dividends.amount', 'dividends.voucher_number'])
    .where('dividends.board_minutes_id', '=', id)
    .where('dividends.status', '!=', 'void')
    .orderBy('dividends.voucher_number')
    .execute();
  return {
    company: await companyOf(db),
    resolutionReference: row.resolution_ref,
    date: row.date,
    attendees: ids.map((a) => names.get(a) ?? a),
    chair: names.get(row.chair_id) ?? row.chair_id,
    financialYearEnd: row.financial_year_end,
    retainedProfitPence: row.retained_profit,
    totalDividendPence: row.total_dividend,
    allocations: allocations.map((a) => ({
      shareholderName: a.full_name,
      shareClass: a.share_class,
      sharesHeld: a.shares_held,
      amountPence: a.amount,
      voucherNumber: a.voucher_number,
    })),
    notes: row.notes,
  };
}

export async function voucherPdf(data: VoucherData): Promise<Uint8Array> {
  const { renderVoucher } = await import('../../pdf/voucher.js');
  return renderVoucher(data);
}

export async function minutesPdf(data: MinutesData): Promise<Uint8Array> {
  const { renderMinutes } = await import('../../pdf/minutes.js');
  return renderMinutes(data);
}
