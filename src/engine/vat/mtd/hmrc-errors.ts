/**
 * HMRC's error answers as acct's errors: a refusal (4xx) is a clear 4xx
 * naming HMRC's code and message, HMRC failing (5xx) is 503
 * hmrc_unavailable; never a 500.
 */
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { HmrcResponse } from './hmrc-client.js';

const detail = z.object({ code: z.string(), message: z.string().optional() });
const errorBody = detail.extend({ errors: z.array(detail).optional() });

export interface HmrcFault {
  readonly code: string;
  readonly message: string;
}

/**
 * HMRC's codes in an error answer: the inner errors of an INVALID_REQUEST
 * or BUSINESS_ERROR wrapper (DUPLICATE_SUBMISSION comes so), else its own.
 */
export function faultsOf(res: HmrcResponse): HmrcFault[] {
  const parsed = errorBody.safeParse(res.body);
  if (!parsed.success) return [{ code: `HTTP_${res.status}`, message: 'no error code in the answer' }];
  const { errors, code, message } = parsed.data;
  const list = errors && errors.length > 0 ? errors : [{ code, message }];
  return list.map((e) => ({ code: e.code, message: e.message ?? '' }));
}

export const hasFault = (res: HmrcResponse, code: string): boolean => faultsOf(res).some((f) => f.code === code);

const describe = (faults: readonly HmrcFault[]): string => faults.map((f) => (f.message ? `${f.code} (${f.message})` : f.code)).join('; ');

/** The seconds HMRC asks a throttled caller to wait: its Retry-After when that is a number of seconds (a date is not read), else a minute. */
function hmrcRetryAfter(res: HmrcResponse): number {
  const said = res.headers.get('retry-after')?.trim() ?? '';
  return /^\d{1,6}$/.test(said) ? Number(said) : 60;
}

/** The AppError of an HMRC answer that is not a success; `what` names the request ("the submission of period 18A1"). */
export function hmrcError(res: HmrcResponse, what: string): AppError {
  const faults = faultsOf(res);
  const said = describe(faults);
  if (res.status >= 500 || res.status < 400) return new AppError('hmrc_unavailable', `HMRC failed to answer ${what}: ${res.status} ${said}; try again later`);
  if (res.status === 429) {
    const retryAfter = hmrcRetryAfter(res);
    return new AppError('rate_limited', `HMRC's rate limit refused ${what}: ${said}; try again in ${retryAfter} s`, undefined, { retryAfter });
  }
  if (res.status === 401) {
    return new AppError('hmrc_not_connected', `HMRC no longer accepts acct's authorisation (${said}): run acct vat connect again`);
  }
  if (faults.some((f) => f.code === 'DUPLICATE_SUBMISSION')) {
    return new AppError('duplicate_submission', `HMRC refused ${what}: it already holds a VAT return for the period (${said})`);
  }
  return new AppError('hmrc_rejected', `HMRC refused ${what}: ${said}`);
}
