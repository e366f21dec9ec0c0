/**
 * Where the card-payment provider (Stripe) is and who this installation is
 * to it, as the adapters hand it to the engine on ctx.billing: the secret
 * key (--stripe-key, $ACCT_STRIPE_KEY), the API's base URL
 * (--stripe-base-url, $ACCT_STRIPE_BASE_URL; Stripe's own by default, a
 * local stand-in in tests), the webhook signing secret
 * (--stripe-webhook-secret, $ACCT_STRIPE_WEBHOOK_SECRET) and where the
 * provider's pages send the customer back (--billing-return-url,
 * $ACCT_BILLING_RETURN_URL). billing/ is the client that uses it.
 */

export const stripeApiUrl = 'https://api.stripe.com';

export interface BillingSettings {
  /** sk_live_… or sk_test_… of the provider; null: billing is not configured (422 billing_not_configured). */
  readonly secretKey: string | null;
  readonly baseUrl: string;
  /** whsec_…: the secret the provider signs webhook events with; null: events are refused (422). */
  readonly webhookSecret: string | null;
  /** The page the provider's checkout and portal send the customer back to, unless a request names one. */
  readonly returnUrl: string | null;
  /** How long one call to the provider may take before it counts as unreachable (30 s by default). */
  readonly timeoutMs?: number;
}
