/** The filed returns as MTD sees them: which obligation each answers, and the receipt of those sent to HMRC. */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { found } from '../../lookup.js';
import { idOf } from '../../schema.js';
import type { OrgDb, VatReturnsTable } from '../../../store/tables.js';

/** The id of a filed return (vat_returns.id). */
export const vatReturnId = () => idOf('vatr');

/** What vat_returns.submission holds: HMRC's receipt and the period key the return was sent for. */
export const submissionSchema = z.object({
  periodKey: z.string(),
  processingDate: z.string(),
  formBundleNumber: z.string(),
  paymentIndicator: z.enum(['DD', 'BANK']).nullable(),
  chargeRefNumber: z.string().nullable(),
  receiptId: z.string().nullable(),
  receiptTimestamp: z.string().nullable(),
  correlationId: z.string().nullable(),
});
export type Submission = z.output<typeof submissionSchema>;

export function submissionOf(row: VatReturnsTable): Submission | null {
  if (row.submission === null) return null;
  const parsed = submissionSchema.safeParse(JSON.parse(row.submission));
  if (!parsed.success) throw new AppError('internal_error', `VAT return ${row.id} holds a submission receipt of another shape`);
  return parsed.data;
}

export async function findFiledReturn(db: Kysely<OrgDb>, id: string): Promise<VatReturnsTable> {
  return found(db.selectFrom('vat_returns').selectAll().where('id', '=', id).executeTakeFirst(), 'filed VAT return', id);
}

/** The filed returns, by their period (start and end dates). */
export async function filedByPeriod(db: Kysely<OrgDb>): Promise<Map<string, VatReturnsTable>> {
  const rows = await db.selectFrom('vat_returns').selectAll().execute();
  return new Map(rows.map((r) => [`${r.period_start}/${r.period_end}`, r]));
}
