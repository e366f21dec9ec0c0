/**
 * Submitting a filed VAT return to HMRC: the return read, its period
 * matched to HMRC's obligation for the same dates (its period key), the
 * nine boxes POSTed with finalised true, all with no transaction open;
 * then HMRC's receipt kept on the return in a short write of its own.
 */
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { timestamp } from '../../clock.js';
import { defineOperation, orgOf, type Ctx } from '../../operation.js';
import { day, instant } from '../../output.js';
import { pence } from '../../schema.js';
import type { VatReturnsTable } from '../../../store/tables.js';
import { fetchObligations, postReturn, type Receipt } from './vat-api.js';
import { declarationOf } from './hmrc-return.js';
import { findFiledReturn, submissionOf, vatReturnId, type Submission } from './submitted-returns.js';
import { vrnOf } from './vrn.js';

function refuseSubmitted(row: VatReturnsTable): void {
  const sent = submissionOf(row);
  if (sent === null) return;
  throw new AppError(
    'already_submitted',
    `the VAT return for ${row.period_start} to ${row.period_end} was submitted to HMRC at ${row.submitted_at ?? ''} ` +
      `(period key ${sent.periodKey}, form bundle ${sent.formBundleNumber}); a correction goes in the next return`,
  );
}

/** The period key of HMRC's obligation with the return's dates, open rather than fulfilled; 422 when HMRC has none. */
async function periodKeyOf(ctx: Ctx, vrn: string, row: VatReturnsTable): Promise<string> {
  const list = await fetchObligations(ctx, orgOf(ctx), vrn, { from: row.period_start, to: row.period_end });
  const same = list.filter((o) => o.start === row.period_start && o.end === row.period_end);
  const obligation = same.find((o) => o.status === 'O') ?? same[0];
  if (!obligation) {
    throw new AppError(
      'no_obligation',
      `HMRC has no VAT obligation from ${row.period_start} to ${row.period_end} for VAT number ${vrn}: ` +
        'the return’s period must be one of HMRC’s (acct vat obligations lists them; check the VAT stagger in the settings)',
    );
  }
  return obligation.periodKey;
}

const submissionFrom = (periodKey: string, r: Receipt): Submission => ({
  periodKey,
  processingDate: r.processingDate,
  formBundleNumber: r.formBundleNumber,
  paymentIndicator: r.paymentIndicator ?? null,
  chargeRefNumber: r.chargeRefNumber ?? null,
  receiptId: r.receiptId,
  receiptTimestamp: r.receiptTimestamp,
  correlationId: r.correlationId,
});

/** The external step: everything that talks to HMRC, then the receipt written. */
async function submitToHmrc(ctx: Ctx, id: string): Promise<void> {
  const books = orgOf(ctx);
  const row = await findFiledReturn(books.db, id);
  refuseSubmitted(row);
  const vrn = await vrnOf(books.db);
  const periodKey = await periodKeyOf(ctx, vrn, row);
  let receipt: Receipt;
  try {
    receipt = await postReturn(ctx, books, vrn, declarationOf(row, periodKey));
  } catch (e) {
    if (e instanceof AppError && e.code === 'hmrc_unavailable') {
      throw new AppError(
        'hmrc_unavailable',
        `${e.message}. If HMRC did receive the return, a retry answers duplicate_submission and acct vat hmrc-return ${periodKey} shows it`,
        undefined,
        { cause: e.cause },
      );
    }
    throw e;
  }
  const submission = submissionFrom(periodKey, receipt);
  await books.write((trx) =>
    trx
      .updateTable('vat_returns')
      .set({ submitted_at: timestamp(ctx.clock), submission: JSON.stringify(submission) })
      .where('id', '=', id)
      .where('submitted_at', 'is', null)
      .execute(),
  );
}

export const submitReturnOp = defineOperation({
  name: 'vat.submit',
  summary: 'Submit a filed VAT return to HMRC (Making Tax Digital) and keep the receipt',
  description:
    'The return’s period must be one of HMRC’s obligations (its period key is found by the dates). Boxes 1 to 5 go in pounds ' +
    'and pence, boxes 6 to 9 in whole pounds, netVatDue as box 5 (never negative), finalised true. A return already ' +
    'submitted is refused (409 already_submitted); one HMRC already holds is 409 duplicate_submission; any other refusal by ' +
    'HMRC is 422 hmrc_rejected naming HMRC’s code; HMRC unreachable is 503 hmrc_unavailable and nothing is kept.',
  access: 'transactions:write',
  method: 'POST',
  path: '/vat/returns/{id}/submit',
  params: { id: vatReturnId() },
  output: z.strictObject({
    id: z.string(),
    periodStart: day(),
    periodEnd: day(),
    netVatDue: pence(),
    netVatDirection: z.enum(['payable', 'repayable', 'nil']),
    periodKey: z.string(),
    submittedAt: instant(),
    processingDate: z.string(),
    formBundleNumber: z.string(),
    paymentIndicator: z.enum(['DD', 'BANK']).nullable(),
    chargeRefNumber: z.string().nullable(),
    receiptId: z.string().nullable(),
    correlationId: z.string().nullable(),
  }),
  external: (ctx, input) => submitToHmrc(ctx, input.id),
  async run(ctx, input) {
    const row = await findFiledReturn(orgOf(ctx).db, input.id);
    const sent = submissionOf(row);
    if (sent === null || row.submitted_at === null) throw new AppError('conflict', `the VAT return ${row.id} has not been submitted to HMRC`);
    return {
      data: {
        id: row.id,
        periodStart: row.period_start,
        periodEnd: row.period_end,
        netVatDue: row.box5,
        netVatDirection: row.net_vat_direction,
        periodKey: sent.periodKey,
        submittedAt: row.submitted_at,
        processingDate: sent.processingDate,
        formBundleNumber: sent.formBundleNumber,
        paymentIndicator: sent.paymentIndicator,
        chargeRefNumber: sent.chargeRefNumber,
        receiptId: sent.receiptId,
        correlationId: sent.correlationId,
      },
    };
  },
});
