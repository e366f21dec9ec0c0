/**
 * HMRC's OAuth 2.0 for user-restricted endpoints: the authorisation URL the
 * user opens, the authorisation code exchanged for tokens, and a refresh
 * with the single-use refresh token (both at /oauth/token, the form body
 * carrying the client id and secret).
 */
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { callHmrc, type HmrcResponse } from './hmrc-client.js';
import type { HmrcSettings } from '../../hmrc.js';
import type { HmrcCredentials } from './settings.js';

/** What acct asks the user to grant: reading obligations, returns, liabilities and payments, and submitting returns. */
export const mtdScope = 'read:vat write:vat';

export interface Grant {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** Seconds the access token lasts (HMRC: 14400, 4 hours). */
  readonly expiresIn: number;
  readonly scope: string;
}

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  scope: z.string().optional(),
});

const oauthError = z.object({ error: z.string(), error_description: z.string().optional() });

/** The address the user opens to sign in to HMRC and grant acct access; HMRC sends the browser back to `redirectUri`. */
export function authorisationUrl(settings: HmrcSettings, credentials: HmrcCredentials, redirectUri: string, state: string): string {
  const query = new URLSearchParams({ response_type: 'code', client_id: credentials.clientId, scope: mtdScope, state, redirect_uri: redirectUri });
  return `${settings.baseUrl}/oauth/authorize?${query.toString()}`;
}

function grantOf(res: HmrcResponse): Grant {
  const parsed = tokenAnswer.safeParse(res.body);
  if (!parsed.success) throw new AppError('hmrc_unavailable', `HMRC's token endpoint answered ${res.status} without the tokens`);
  const t = parsed.data;
  return { accessToken: t.access_token, refreshToken: t.refresh_token, expiresIn: t.expires_in, scope: t.scope ?? mtdScope };
}

/** The OAuth error of a refused token request, as `error (description)`. */
function refusal(res: HmrcResponse): { readonly error: string; readonly said: string } {
  const parsed = oauthError.safeParse(res.body);
  if (!parsed.success) return { error: `HTTP_${res.status}`, said: `HTTP ${res.status}` };
  const { error, error_description: description } = parsed.data;
  return { error, said: description ? `${error} (${description})` : error };
}

async function token(settings: HmrcSettings, form: Record<string, string>): Promise<HmrcResponse> {
  return callHmrc(settings, { method: 'POST', path: '/oauth/token', form, headers: { accept: 'application/json' } });
}

/** Exchange the code HMRC sent back (single use, 10 minutes) for tokens; a refused code is 422 hmrc_rejected. */
export async function exchangeCode(settings: HmrcSettings, credentials: HmrcCredentials, code: string, redirectUri: string): Promise<Grant> {
  const res = await token(settings, {
    grant_type: 'authorization_code',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    redirect_uri: redirectUri,
    code,
  });
  if (res.status === 200) return grantOf(res);
  if (res.status >= 500) throw new AppError('hmrc_unavailable', `HMRC's token endpoint failed (${res.status}); try again later`);
  const { error, said } = refusal(res);
  if (error === 'invalid_client') throw new AppError('hmrc_not_configured', `HMRC does not accept the client id and secret: ${said}`);
  throw new AppError('hmrc_rejected', `HMRC refused the authorisation code: ${said}; run acct vat connect again`);
}

/**
 * New tokens for a refresh token, or null when HMRC refuses it (used
 * already, revoked, or over 18 months old): the user must grant again.
 */
export async function refreshGrant(settings: HmrcSettings, credentials: HmrcCredentials, refreshToken: string): Promise<Grant | null> {
  const res = await token(settings, {
    grant_type: 'refresh_token',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    refresh_token: refreshToken,
  });
  if (res.status === 200) return grantOf(res);
  if (res.status >= 500) throw new AppError('hmrc_unavailable', `HMRC's token endpoint failed (${res.status}); try again later`);
  const { error, said } = refusal(res);
  if (error === 'invalid_client') throw new AppError('hmrc_not_configured', `HMRC does not accept the client id and secret: ${said}`);
  return null;
}
