/**
 * Checkout takes only the plan made for the organisation's business type
 * (as FreeAgent sells its plans): a sole trader subscribes to sole_trader,
 * a limited company to limited_company. The other plan is 422
 * unprocessable_entity, its message naming the plan asked for and the one
 * that fits, before the provider is asked and with nothing written: no
 * customer, no session kept, no open session expired. Over HTTP on a real port, against the
 * provider's stand-in, which records every request it gets.
 */
import t from 'tap';
import { expectError } from '../http/support.js';
import { billedBooks, checkout, nothing, status, written } from './support.js';

const soleTrader = { name: 'Jo Bloggs Plumbing', businessType: 'sole_trader', vatScheme: 'not_registered' } as const;

t.test("a sole trader's checkout for limited_company: 422 naming sole_trader, nothing written; sole_trader then opens a session", async (t) => {
  const b = await billedBooks(t, { organisation: soleTrader });
  const before = await status(t, b);
  t.match(before, { plan: 'trial', isTrialActive: true, hasStripeCustomer: false });

  expectError(t, await checkout(b, 'limited_company'), 422, 'unprocessable_entity', {
    // sole_trader is 1200 pence a month = £12.00.
    message: 'plan limited_company is for limited companies: a sole trader subscribes to sole_trader (£12.00 a month)',
  });
  t.same(b.standIn.requests, [], 'the provider was not asked: no customer made, no session opened');
  t.same(await written(b), nothing, 'no customer kept, no session kept, still on the trial');
  t.same(await status(t, b), before, 'the billing status is unchanged');

  const r = await checkout(b, 'sole_trader');
  t.equal(r.status, 200, JSON.stringify(r.body?.error ?? ''));
  t.match(r.body.data, { sessionId: /^cs_test_/, trialDays: 90 });
  t.match(b.standIn.to('POST', '/v1/checkout/sessions')[0]?.params, {
    line_items: { 0: { price_data: { unit_amount: '1200' } } },
    metadata: { organisationId: b.books.organisationId, plan: 'sole_trader' },
  });
});

t.test("a limited company's checkout for sole_trader: 422 naming limited_company, before any provider call, even with a session open", async (t) => {
  const b = await billedBooks(t);
  const before = await status(t, b);
  const refusal = {
    // limited_company is 2400 pence a month = £24.00.
    message: 'plan sole_trader is for sole traders: a limited company subscribes to limited_company (£24.00 a month)',
  };

  expectError(t, await checkout(b, 'sole_trader'), 422, 'unprocessable_entity', refusal);
  t.same(b.standIn.requests, [], 'the provider was not asked');
  t.same(await written(b), nothing, 'nothing written');
  t.same(await status(t, b), before, 'the billing status is unchanged');

  const r = await checkout(b, 'limited_company');
  t.equal(r.status, 200, JSON.stringify(r.body?.error ?? ''));
  const open = r.body.data.sessionId as string;
  t.match(b.standIn.to('POST', '/v1/checkout/sessions')[0]?.params, {
    line_items: { 0: { price_data: { unit_amount: '2400' } } },
    metadata: { plan: 'limited_company' },
  });

  // Now with a customer and a session open at the provider: the wrong plan still asks the provider nothing, so the open session is not
  // expired (it can still be paid) and no second session is made or kept.
  const kept = await written(b);
  const calls = b.standIn.requests.length;
  const during = await status(t, b);
  expectError(t, await checkout(b, 'sole_trader'), 422, 'unprocessable_entity', refusal);
  t.equal(b.standIn.requests.length, calls, 'no provider request');
  t.equal(b.standIn.sessions.get(open)?.['status'], 'open', 'the open session was not expired');
  t.same(await written(b), kept, 'the same customer, the one session kept');
  t.same(await status(t, b), during, 'the billing status is unchanged');
});
