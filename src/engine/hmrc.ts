/**
 * Where HMRC's API is and who this installation is to it, as the adapters
 * hand it to the engine on ctx.hmrc: the base URL (--hmrc-base-url,
 * $ACCT_HMRC_BASE_URL, HMRC's sandbox by default) and the client id and
 * secret of the HMRC application acct runs as ($ACCT_HMRC_CLIENT_ID,
 * $ACCT_HMRC_CLIENT_SECRET). vat/mtd/ is the client that uses it.
 */

/** HMRC's sandbox; production is https://api.service.hmrc.gov.uk. */
export const sandboxBaseUrl = 'https://test-api.service.hmrc.gov.uk';

export interface HmrcSettings {
  readonly baseUrl: string;
  readonly clientId: string | null;
  readonly clientSecret: string | null;
  /** How long one call to HMRC may take before it counts as unreachable (30 s by default). */
  readonly timeoutMs?: number;
}
