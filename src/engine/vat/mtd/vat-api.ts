/**
 * The endpoints of HMRC's VAT (MTD) API that acct calls, with the user's
 * access token (refreshed as needed), the Accept header of version 1.0 and
 * the fraud prevention headers on every call. Answers are checked against
 * HMRC's documented shapes; amounts stay HMRC's pounds here.
 */
import { z } from 'zod';
import type { Ctx, OrgScope } from '../../operation.js';
import { acceptHeader, callHmrc, type HmrcRequest, type HmrcResponse } from './hmrc-client.js';
import { hasFault, hmrcError } from './hmrc-errors.js';
import { fraudHeadersNow } from './fraud-headers.js';
import { accessToken, renewAccess } from './tokens.js';
import { hmrcSettingsOf } from './settings.js';
import { AppError } from '../../errors.js';

/** A call as the user of the books, retried once with a renewed token when HMRC answers 401 INVALID_CREDENTIALS. */
export async function callAsUser(ctx: Ctx, books: OrgScope, request: HmrcRequest): Promise<HmrcResponse> {
  const settings = hmrcSettingsOf(ctx);
  const send = async (token: string) =>
    callHmrc(settings, {
      ...request,
      headers: { ...request.headers, accept: acceptHeader, authorization: `Bearer ${token}`, ...(await fraudHeadersNow(ctx)) },
    });
  const token = await accessToken(ctx, books, settings);
  const res = await send(token);
  if (res.status !== 401 || !hasFault(res, 'INVALID_CREDENTIALS')) return res;
  return send(await renewAccess(ctx, books, settings, token));
}

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const money = z.number();

export const obligationSchema = z.object({
  periodKey: z.string(),
  start: date,
  end: date,
  due: date,
  status: z.enum(['O', 'F']),
  received: date.optional(),
});
export type Obligation = z.output<typeof obligationSchema>;

export const receiptSchema = z.object({
  processingDate: z.string(),
  formBundleNumber: z.string(),
  paymentIndicator: z.enum(['DD', 'BANK']).optional(),
  chargeRefNumber: z.string().optional(),
});

export const declaredReturnSchema = z.object({
  periodKey: z.string(),
  vatDueSales: money,
  vatDueAcquisitions: money,
  totalVatDue: money,
  vatReclaimedCurrPeriod: money,
  netVatDue: money,
  totalValueSalesExVAT: money,
  totalValuePurchasesExVAT: money,
  totalValueGoodsSuppliedExVAT: money,
  totalAcquisitionsExVAT: money,
});
export type DeclaredReturn = z.output<typeof declaredReturnSchema>;
/** What POST /returns takes: the nine boxes in HMRC's pounds, and the declaration. */
export type ReturnDeclaration = DeclaredReturn & { readonly finalised: true };

const liabilitySchema = z.object({
  taxPeriod: z.object({ from: date, to: date }).optional(),
  type: z.string(),
  originalAmount: money,
  outstandingAmount: money.optional(),
  due: date.optional(),
});
const paymentSchema = z.object({ amount: money, received: date.optional() });

/** The answer's body in its documented shape; one that is not is HMRC failing (503). */
function parsed<T extends z.ZodType>(schema: T, res: HmrcResponse, what: string): z.output<T> {
  const result = schema.safeParse(res.body);
  if (!result.success) throw new AppError('hmrc_unavailable', `HMRC answered ${what} with ${res.status} and a body not in the shape of its API`);
  return result.data;
}

const vatPath = (vrn: string, rest: string) => `/organisations/vat/${encodeURIComponent(vrn)}/${rest}`;

/** A list of HMRC's, empty when HMRC answers 404 NOT_FOUND ("no associated data is found"). */
async function list<T extends z.ZodType>(ctx: Ctx, books: OrgScope, request: HmrcRequest, schema: T, what: string): Promise<z.output<T> | null> {
  const res = await callAsUser(ctx, books, request);
  if (res.status === 404 && hasFault(res, 'NOT_FOUND')) return null;
  if (res.status !== 200) throw hmrcError(res, what);
  return parsed(schema, res, what);
}

export interface ObligationQuery {
  readonly from?: string;
  readonly to?: string;
  readonly status?: 'O' | 'F';
}

export async function fetchObligations(ctx: Ctx, books: OrgScope, vrn: string, q: ObligationQuery): Promise<Obligation[]> {
  const got = await list(
    ctx,
    books,
    { method: 'GET', path: vatPath(vrn, 'obligations'), query: { ...q } },
    z.object({ obligations: z.array(obligationSchema) }),
    'the request for VAT obligations',
  );
  return got?.obligations ?? [];
}

export async function fetchLiabilities(ctx: Ctx, books: OrgScope, vrn: string, from: string, to: string): Promise<z.output<typeof liabilitySchema>[]> {
  const got = await list(
    ctx,
    books,
    { method: 'GET', path: vatPath(vrn, 'liabilities'), query: { from, to } },
    z.object({ liabilities: z.array(liabilitySchema) }),
    'the request for VAT liabilities',
  );
  return got?.liabilities ?? [];
}

export async function fetchPayments(ctx: Ctx, books: OrgScope, vrn: string, from: string, to: string): Promise<z.output<typeof paymentSchema>[]> {
  const got = await list(
    ctx,
    books,
    { method: 'GET', path: vatPath(vrn, 'payments'), query: { from, to } },
    z.object({ payments: z.array(paymentSchema) }),
    'the request for VAT payments',
  );
  return got?.payments ?? [];
}

/** A return HMRC holds, or null when it holds none for the period key. */
export async function fetchReturn(ctx: Ctx, books: OrgScope, vrn: string, periodKey: string): Promise<DeclaredReturn | null> {
  const what = `the request for the VAT return of period ${periodKey}`;
  const res = await callAsUser(ctx, books, { method: 'GET', path: vatPath(vrn, `returns/${encodeURIComponent(periodKey)}`) });
  if (res.status === 404) return null;
  if (res.status !== 200) throw hmrcError(res, what);
  return parsed(declaredReturnSchema, res, what);
}

export interface Receipt extends z.output<typeof receiptSchema> {
  readonly receiptId: string | null;
  readonly receiptTimestamp: string | null;
  readonly correlationId: string | null;
}

export async function postReturn(ctx: Ctx, books: OrgScope, vrn: string, declaration: ReturnDeclaration): Promise<Receipt> {
  const what = `the submission of period ${declaration.periodKey}`;
  const res = await callAsUser(ctx, books, { method: 'POST', path: vatPath(vrn, 'returns'), json: declaration });
  if (res.status !== 201 && res.status !== 200) throw hmrcError(res, what);
  return {
    ...parsed(receiptSchema, res, what),
    receiptId: res.headers.get('receipt-id'),
    receiptTimestamp: res.headers.get('receipt-timestamp'),
    correlationId: res.headers.get('x-correlationid'),
  };
}
