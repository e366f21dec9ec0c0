import { InvalidArgumentError, type Command } from 'commander';
import { defaultBodyLimit } from '../../http/body.js';
import type { GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';

/** The --port option's parser: a bad port is a usage error (exit 2) before anything opens. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return port;
}

function parseByteCount(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('expected a positive number of bytes');
  return Number(value);
}

function parseSeconds(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 86_400) throw new InvalidArgumentError('expected a whole number of seconds from 0 to 86400');
  return Number(value);
}

interface ServeFlags {
  readonly host: string;
  readonly port: number;
  readonly bodyLimit: number;
  readonly sweepInterval: number;
  readonly rateLimit: boolean;
  readonly trustProxy?: boolean;
  readonly allowHttpWebhooks?: boolean;
  readonly allowPrivateWebhooks?: boolean;
  readonly webhookCa?: string;
  readonly stripeKey?: string;
  readonly stripeBaseUrl?: string;
  readonly stripeWebhookSecret?: string;
  readonly billingReturnUrl?: string;
}

export function addServe(program: Command): void {
  const doc = handWritten.serve;
  program
    .command(doc.name)
    .description(doc.summary)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 3000)
    .option('--body-limit <bytes>', 'largest request body accepted', parseByteCount, defaultBodyLimit)
    .option('--allow-http-webhooks', 'let webhook endpoints use plain http:// URLs (local development)')
    .option('--allow-private-webhooks', 'let webhook endpoints resolve to loopback, private or link-local addresses (local development)')
    .option('--webhook-ca <file>', 'PEM certificate authorities to trust for webhook deliveries, besides the system ones')
    .option('--stripe-key <key>', "the card-payment provider's secret key for subscription billing (default $ACCT_STRIPE_KEY; none: billing answers 422)")
    .option('--stripe-base-url <url>', "the provider's API (default $ACCT_STRIPE_BASE_URL, else https://api.stripe.com)")
    .option('--stripe-webhook-secret <secret>', 'the whsec_… secret provider events are signed with (default $ACCT_STRIPE_WEBHOOK_SECRET)')
    .option('--billing-return-url <url>', "where the provider's checkout and portal send the customer back (default $ACCT_BILLING_RETURN_URL)")
    .option('--no-rate-limit', "do not enforce the request rate limits, the plans' and the per-IP ones (for load tests and scripted migrations)")
    .option(
      '--trust-proxy',
      "behind one reverse proxy: take the client's address from the last entry of X-Forwarded-For (per-IP limits, request log); without it the header is ignored",
    )
    .option(
      '--sweep-interval <seconds>',
      'seconds between sweeps that mark invoices and bills past their due date overdue: every organisation at start and each new day, in between only the books issued into or written by another process since (0: only at start)',
      parseSeconds,
      60,
    )
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (flags: ServeFlags, cmd: Command) => {
      const { serve } = await import('../serving.js');
      await serve(cmd.optsWithGlobals<GlobalOptions>(), {
        ...flags,
        rateLimits: flags.rateLimit,
        trustProxy: flags.trustProxy === true,
        billing: {
          ...(flags.stripeKey ? { stripeKey: flags.stripeKey } : {}),
          ...(flags.stripeBaseUrl ? { stripeBaseUrl: flags.stripeBaseUrl } : {}),
          ...(flags.stripeWebhookSecret ? { stripeWebhookSecret: flags.stripeWebhookSecret } : {}),
          ...(flags.billingReturnUrl ? { billingReturnUrl: flags.billingReturnUrl } : {}),
        },
        webhooks: {
          allowHttp: flags.allowHttpWebhooks === true,
          allowPrivate: flags.allowPrivateWebhooks === true,
          ...(flags.webhookCa ? { ca: flags.webhookCa } : {}),
        },
      });
    });
}
