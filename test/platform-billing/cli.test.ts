/**
 * Billing through the command line (the real commander program, in-process),
 * as the local owner of the files (every scope, no session): acct billing
 * status, plans, checkout and portal, the provider configured from the
 * environment; refusals with their exit codes.
 */
import t from 'tap';
import { newBooks, runCliInProcess, runCliInProcessJson } from '../helpers/index.js';
import { standInKey, startStandIn } from './stripe-stand-in.js';

t.test('acct billing status: the trial as a table and as JSON', async (t) => {
  const books = await newBooks(t);
  const table = await runCliInProcess(['--data', books.dataDir, 'billing', 'status']);
  t.equal(table.status, 0, table.stderr);
  t.match(table.stdout, /plan\s+trial/);
  t.match(table.stdout, /planName\s+Free trial/);
  t.match(table.stdout, /isTrialActive\s+(true|yes)/);
  const json = await runCliInProcessJson(['--data', books.dataDir, '--json', 'billing', 'status']);
  t.equal(json.status, 0, json.stderr);
  t.match(json.data, { plan: 'trial', isTrialActive: true, hasStripeCustomer: false, hasSubscription: false, subscription: null });
});

t.test('acct billing plans prints the prices in pounds; --json in pence', async (t) => {
  const books = await newBooks(t);
  const table = await runCliInProcess(['--data', books.dataDir, 'billing', 'plans']);
  t.equal(table.status, 0, table.stderr);
  t.match(table.stdout, /Sole Trader.*12\.00/);
  t.match(table.stdout, /Limited Company.*24\.00/);
  const json = await runCliInProcessJson(['--data', books.dataDir, '--json', 'billing', 'plans']);
  t.match(json.data, [
    { id: 'sole_trader', monthlyPrice: 1200 },
    { id: 'limited_company', monthlyPrice: 2400 },
  ]);
});

t.test('acct billing checkout and portal: 422 (exit 5) without a key; with $ACCT_STRIPE_KEY and $ACCT_STRIPE_BASE_URL, the provider is called', async (t) => {
  const books = await newBooks(t);
  const standIn = await startStandIn();
  t.teardown(() => standIn.stop());
  const none = await runCliInProcess(['--data', books.dataDir, 'billing', 'checkout', '--plan', 'limited_company'], { env: { ACCT_STRIPE_KEY: '' } });
  t.equal(none.status, 5, 'exit 5');
  t.match(none.stderr, /billing_not_configured/);
  t.same(standIn.requests, []);

  const env = { ACCT_STRIPE_KEY: standInKey, ACCT_STRIPE_BASE_URL: standIn.url, ACCT_BILLING_RETURN_URL: 'https://app.example.com/billing' };
  // The books are a limited company's: the sole trader plan is refused (exit 5) before the provider is asked.
  const misfit = await runCliInProcess(['--data', books.dataDir, 'billing', 'checkout', '--plan', 'sole_trader'], { env });
  t.equal(misfit.status, 5, 'exit 5');
  t.match(misfit.stderr, /plan sole_trader is for sole traders: a limited company subscribes to limited_company \(£24\.00 a month\)/);
  t.same(standIn.requests, []);
  const made = await runCliInProcessJson(['--data', books.dataDir, '--json', 'billing', 'checkout', '--plan', 'limited_company'], { env });
  t.equal(made.status, 0, made.stderr);
  t.match(made.data, { checkoutUrl: /^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/, sessionId: /^cs_test_/ });
  t.equal(standIn.to('POST', '/v1/checkout/sessions').length, 1);
  const portal = await runCliInProcessJson(['--data', books.dataDir, '--json', 'billing', 'portal'], { env });
  t.equal(portal.status, 0, portal.stderr);
  t.match(portal.data, { portalUrl: /^https:\/\/billing\.stripe\.com\/p\/session\// });

  const sandbox = await runCliInProcess(['--data', books.dataDir, '--test', 'billing', 'checkout', '--plan', 'limited_company'], { env });
  t.equal(sandbox.status, 6, 'the test books cannot subscribe: exit 6');
  t.match(sandbox.stderr, /forbidden/);
  const status = await runCliInProcessJson(['--data', books.dataDir, '--json', 'billing', 'status']);
  t.match(status.data, { plan: 'trial', hasStripeCustomer: true, hasSubscription: false });
});
