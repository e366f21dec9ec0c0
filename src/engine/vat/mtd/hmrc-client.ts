/**
 * HTTP to HMRC's VAT (MTD) API, over the global fetch, never from inside a
 * database write transaction (see external.ts).
 *
 * Read before writing this client, and followed:
 * - HMRC's OpenAPI definition of the VAT (MTD) API 1.0, github.com/hmrc/vat-api,
 *   resources/public/api/conf/1.0/application.yaml (commit 8ddd80d3): the paths
 *   /organisations/vat/{vrn}/obligations (from, to, status O|F), POST
 *   /organisations/vat/{vrn}/returns (VATReturnDeclaration: periodKey,
 *   vatDueSales … totalAcquisitionsExVAT, finalised; 201 with processingDate,
 *   formBundleNumber, paymentIndicator DD|BANK, chargeRefNumber and the
 *   Receipt-ID, Receipt-Timestamp and X-CorrelationId headers), GET
 *   …/returns/{periodKey} (a # in the key percent-encoded), …/liabilities and
 *   …/payments (from and to required); the userRestricted security scheme
 *   (authorization code, /oauth/authorize and /oauth/token, scopes read:vat
 *   and write:vat); app/v1/models/errors/*.scala for the error bodies:
 *   {code, message} or, for several or business errors, INVALID_REQUEST or
 *   BUSINESS_ERROR with errors [{code, message, path}] (DUPLICATE_SUBMISSION
 *   is a 403 BUSINESS_ERROR; TAX_PERIOD_NOT_ENDED a 403; VRN_INVALID a 400);
 *   VrnValidation (^\d{9}$) and PeriodKeyValidation (^[#0-9A-Z]{4}$).
 * - HMRC Developer Hub, "User-restricted endpoints" (authorisation code grant,
 *   4-hour access tokens, single-use refresh tokens, 18 months), "Reference
 *   guide" (sandbox https://test-api.service.hmrc.gov.uk, production
 *   https://api.service.hmrc.gov.uk; Accept: application/vnd.hmrc.1.0+json;
 *   401 INVALID_CREDENTIALS, 406 ACCEPT_HEADER_INVALID, 429
 *   MESSAGE_THROTTLED_OUT) and "Send fraud prevention data" v3.3, connection
 *   method DESKTOP_APP_DIRECT, with "Getting it right" (missing data: an empty
 *   value or no header, never null): see fraud-headers.ts.
 */
import { assertOutsideTransaction } from '../../external.js';
import { AppError } from '../../errors.js';
import type { HmrcSettings } from '../../hmrc.js';

/** The version of the VAT (MTD) API acct speaks. */
export const acceptHeader = 'application/vnd.hmrc.1.0+json';

export interface HmrcRequest {
  readonly method: 'GET' | 'POST';
  /** The path under the base URL, its parameters already percent-encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** A JSON body. */
  readonly json?: unknown;
  /** A form body (the token endpoint). */
  readonly form?: Readonly<Record<string, string>>;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface HmrcResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON; undefined for an empty body. */
  readonly body: unknown;
}

const defaultTimeoutMs = 30_000;

/** One call; an HMRC that cannot be reached, does not answer in time, or answers what is not JSON is 503 hmrc_unavailable. */
export async function callHmrc(settings: HmrcSettings, request: HmrcRequest): Promise<HmrcResponse> {
  assertOutsideTransaction('calling HMRC');
  const query = new URLSearchParams(Object.entries(request.query ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
  const url = `${settings.baseUrl}${request.path}${query.size > 0 ? `?${query.toString()}` : ''}`;
  const headers: Record<string, string> = { ...request.headers };
  let body: string | undefined;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  }
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { method: request.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(settings.timeoutMs ?? defaultTimeoutMs) });
    text = await res.text();
  } catch (e) {
    const reason = e instanceof Error && e.cause instanceof Error ? e.cause.message : (e as Error).message;
    throw new AppError('hmrc_unavailable', `HMRC did not answer at ${settings.baseUrl} (${reason}); try again later`, undefined, {
      cause: e,
    });
  }
  if (text.trim() === '') return { status: res.status, headers: res.headers, body: undefined };
  try {
    return { status: res.status, headers: res.headers, body: JSON.parse(text) as unknown };
  } catch (e) {
    if (res.status >= 400) return { status: res.status, headers: res.headers, body: undefined };
    throw new AppError('hmrc_unavailable', `HMRC answered ${request.method} ${request.path} with ${res.status} and a body that is not JSON`, undefined, {
      cause: e,
    });
  }
}
