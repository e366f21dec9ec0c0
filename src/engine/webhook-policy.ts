/**
 * Which webhook URLs acct serve accepts: strict (public HTTPS addresses only)
 * unless started with --allow-http-webhooks or --allow-private-webhooks. A
 * setting of the server that the engine receives in Ctx, so it lives beside
 * Ctx rather than in the integration area that enforces it.
 */
export interface WebhookPolicy {
  readonly allowHttp: boolean;
  readonly allowPrivate: boolean;
}

export const strictPolicy: WebhookPolicy = { allowHttp: false, allowPrivate: false };
