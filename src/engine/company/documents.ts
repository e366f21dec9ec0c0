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
import { findDividend, findMinutes } from './dividends.js';
import type { OrgDb } from '../../store/tables.js';

async function companyOf(db: Kysely<OrgDb>): Promise<PdfCompany> {
  const org = await loadOrganisation(db);
  return { name: org.name, companyNumber: org.company_number, address: addressLines(org) };
}

/**
 * A voucher prints the particulars as declared (the shareholder's name and
 * address, the company's name and number, kept on the dividend), so that a
 * rename later does not rewrite it or its hash; the registered office is the
 * company's as it stands.
 */
export async function voucherData(db: Kysely<OrgDb>, id: string): Promise<VoucherData> {
  const row = await findDividend(db, id);
  const minutes = await findMinutes(db, row.board_minutes_id);
  const company = await companyOf(db);
  return {
    company: { ...company, name: row.company_name, companyNumber: row.company_number },
    voucherNumber: row.voucher_number,
    status: row.status,
    shareholder: { name: row.shareholder_name, address: row.shareholder_address },
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

/** The minutes print the company's name and number at the meeting, kept on them; the registered office as it stands, as on a voucher. */
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
    .select(['shareholder_name', 'share_class', 'shares_held', 'amount', 'voucher_number'])
    .where('board_minutes_id', '=', id)
    .where('status', '!=', 'void')
    .orderBy('voucher_number')
    .execute();
  return {
    company: { ...(await companyOf(db)), name: row.company_name, companyNumber: row.company_number },
    resolutionReference: row.resolution_ref,
    date: row.date,
    attendees: ids.map((a) => names.get(a) ?? a),
    chair: names.get(row.chair_id) ?? row.chair_id,
    financialYearEnd: row.financial_year_end,
    retainedProfitPence: row.retained_profit,
    totalDividendPence: row.total_dividend,
    allocations: allocations.map((a) => ({
      shareholderName: a.shareholder_name,
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
