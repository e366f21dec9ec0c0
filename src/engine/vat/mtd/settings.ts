/** The HMRC settings of ctx, checked, and the client credentials where a call needs them. */
import { AppError } from '../../errors.js';
import { sandboxBaseUrl, type HmrcSettings } from '../../hmrc.js';
import type { Ctx } from '../../operation.js';

export interface HmrcCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** The settings of ctx, the base URL checked (a 400 naming the option when it is not an http(s) URL) and without a trailing slash. */
export function hmrcSettingsOf(ctx: Ctx): HmrcSettings {
  const settings = ctx.hmrc ?? { baseUrl: sandboxBaseUrl, clientId: null, clientSecret: null };
  let url: URL;
  try {
    url = new URL(settings.baseUrl);
  } catch {
    throw new AppError('validation_error', `the HMRC base URL ${settings.baseUrl} is not a URL (--hmrc-base-url, ACCT_HMRC_BASE_URL)`, 'hmrc-base-url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('validation_error', `the HMRC base URL must be an https:// URL, not ${settings.baseUrl}`, 'hmrc-base-url');
  }
  return { ...settings, baseUrl: settings.baseUrl.replace(/\/+$/, '') };
}

/** The client id and secret, needed to connect and to refresh tokens; 422 when they are not set. */
export function credentialsOf(settings: HmrcSettings): HmrcCredentials {
  if (!settings.clientId || !settings.clientSecret) {
    throw new AppError(
      'hmrc_not_configured',
      'no HMRC application credentials: set ACCT_HMRC_CLIENT_ID and ACCT_HMRC_CLIENT_SECRET to the client id and secret of your application on HMRC’s Developer Hub',
    );
  }
  return { clientId: settings.clientId, clientSecret: settings.clientSecret };
}
