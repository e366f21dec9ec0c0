/**
 * A stand-in for the card-payment provider's API (Stripe), on 127.0.0.1
 * and a free port, for the tests of acct's real client (the official SDK;
 * this machine cannot reach the provider). It speaks the provider's wire
 * format for the calls acct makes: form-encoded POST bodies with bracketed
 * keys (line_items[0][price_data][currency]), JSON objects with their
 * `object` and prefixed ids (cus_, cs_, bps_, sub_, in_, inpay_, re_),
 * lists as {object: 'list', data, has_more, url}, and errors as
 * {error: {type, message, code?, param?}} with a 4xx. It checks the secret
 * key on every call (401 as the provider answers a wrong one), records
 * each request, and makes the events the provider would send, signed as
 * it signs them, for the tests to deliver to acct's webhook receiver.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const standInKey = 'sk_test_standin0000000000000000';
export const webhookSecret = 'whsec_standin0000000000000000000000';

/** A request as it arrived: method, path, the form body as text, and the form parsed. */
export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly form: string;
  readonly params: Record<string, unknown>;
  readonly version: string | undefined;
}

type Obj = Record<string, unknown>;

/** A form body with bracketed keys as nested objects (the provider's encoding; list indexes stay keys). */
export function parseForm(text: string): Record<string, unknown> {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let at = out;
    path.slice(0, -1).forEach((p) => {
      at = (at[p] ??= {}) as Obj;
    });
    at[path[path.length - 1]!] = value;
  }
  return out;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export interface StandIn {
  readonly url: string;
  readonly requests: Recorded[];
  readonly customers: Map<string, Obj>;
  readonly sessions: Map<string, Obj>;
  readonly subscriptions: Map<string, Obj>;
  readonly invoices: Map<string, Obj>;
  readonly refunds: Obj[];
  /** The requests to a path, e.g. POST /v1/checkout/sessions. */
  to(method: string, path: string): Recorded[];
  /** The next call is answered with this status and error body, whatever it asks. */
  failNext(status: number, type: string, message: string, code?: string): void;
  /** The customer completes the session just before acct's call to expire it arrives (a race the provider settles: 400, not expirable). */
  completesBeforeExpire(sessionId: string): void;
  /** The customer pays (or starts the trial of) a checkout session: the subscription made, and the events the provider sends, in order. */
  completeCheckout(sessionId: string, at: number): Stripe.Event[];
  /** An invoice of the subscription, paid or open (a failed payment). */
  addInvoice(subscriptionId: string, status: 'paid' | 'open', amount: number): Obj;
  /** Whether the card on file pays when an open invoice is paid again (by default it is declined). */
  cardPays(pays: boolean): void;
  /** The provider goes down: the port refuses connections. */
  stop(): Promise<void>;
}

/** An event as the provider sends it, of the object given. */
export function eventOf(type: string, object: Obj, created: number, id = newId('evt')): Stripe.Event {
  return {
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created,
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  } as unknown as Stripe.Event;
}

/** The event's payload and its Stripe-Signature header, signed with the secret at the time given (Unix seconds). */
export function signed(event: Stripe.Event, timestamp: number, secret = webhookSecret): { payload: string; signature: string } {
  const payload = JSON.stringify(event, null, 2);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) };
}

function subscriptionOf(id: string, customer: string, status: string, periodEnd: number, metadata: unknown): Obj {
  return {
    id,
    object: 'subscription',
    customer,
    status,
    cancel_at_period_end: false,
    canceled_at: null,
    metadata: metadata ?? {},
    items: {
      object: 'list',
      data: [{ id: newId('si'), object: 'subscription_item', current_period_end: periodEnd, current_period_start: periodEnd - 30 * 86_400 }],
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
    },
  };
}

export async function startStandIn(): Promise<StandIn> {
  const requests: Recorded[] = [];
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const payments: Obj[] = [];
  const refunds: Obj[] = [];
  const racing = new Set<string>();
  let failure: { status: number; error: Obj } | null = null;
  let cardPays = false;

  const list = (data: Obj[], url: string) => ({ object: 'list', data, has_more: false, url });
  const missing = (what: string, id: string) => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'`, param: 'id' } },
  });
  const invalid = (message: string, param: string) => ({ status: 400, body: { error: { type: 'invalid_request_error', message, param } } });

  function answer(method: string, path: string, query: URLSearchParams, p: Obj): { status: number; body: unknown } {
    const now = Math.floor(Date.now() / 1000);
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        created: now,
        name: p['name'] ?? null,
        email: p['email'] ?? null,
        metadata: p['metadata'] ?? {},
        livemode: false,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const customer = typeof p['customer'] === 'string' ? p['customer'] : '';
      if (!customers.has(customer)) return missing('customer', customer);
      if (!p['success_url']) return invalid('Missing required param: success_url.', 'success_url');
      const id = `cs_test_${randomBytes(16).toString('hex')}`;
      const session = {
        id,
        object: 'checkout.session',
        mode: p['mode'],
        customer,
        client_reference_id: p['client_reference_id'] ?? null,
        metadata: p['metadata'] ?? {},
        status: 'open',
        payment_status: 'unpaid',
        subscription: null,
        success_url: p['success_url'],
        cancel_url: p['cancel_url'] ?? null,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        created: now,
        expires_at: now + 86_400,
        livemode: false,
        subscription_data: p['subscription_data'] ?? {},
      };
      sessions.set(id, session);
      return { status: 200, body: session };
    }
    if (method === 'GET' && path === '/v1/checkout/sessions') {
      const found = [...sessions.values()]
        .filter((x) => (!query.get('customer') || x['customer'] === query.get('customer')) && (!query.get('status') || x['status'] === query.get('status')))
        .reverse();
      return { status: 200, body: list(found.slice(0, Number(query.get('limit') ?? 10)), '/v1/checkout/sessions') };
    }
    if (method === 'POST' && (m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path))) {
      const session = sessions.get(m[1]!);
      if (!session) return missing('checkout.session', m[1]!);
      if (racing.delete(m[1]!)) Object.assign(session, { status: 'complete' });
      if (session['status'] !== 'open') return invalid(`Only Checkout Sessions with a status in ["open"] can be expired.`, 'session');
      Object.assign(session, { status: 'expired' });
      return { status: 200, body: session };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = typeof p['customer'] === 'string' ? p['customer'] : '';
      if (!customers.has(customer)) return missing('customer', customer);
      const id = newId('bps');
      return {
        status: 200,
        body: {
          id,
          object: 'billing_portal.session',
          customer,
          return_url: p['return_url'] ?? null,
          url: `https://billing.stripe.com/p/session/test_${id}`,
          created: now,
          livemode: false,
        },
      };
    }
    if ((m = /^\/v1\/subscriptions\/(sub_\w+)$/.exec(path))) {
      const sub = subscriptions.get(m[1]!);
      if (!sub) return missing('subscription', m[1]!);
      if (method === 'DELETE') Object.assign(sub, { status: 'canceled', canceled_at: now });
      else if (method === 'POST' && p['cancel_at_period_end'] !== undefined)
        Object.assign(sub, { cancel_at_period_end: p['cancel_at_period_end'] === 'true', canceled_at: now });
      return { status: 200, body: sub };
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const found = [...invoices.values()]
        .filter((i) => i['customer'] === query.get('customer') && (!query.get('status') || i['status'] === query.get('status')))
        .reverse();
      return { status: 200, body: list(found.slice(0, Number(query.get('limit') ?? 10)), '/v1/invoices') };
    }
    if (method === 'GET' && path === '/v1/invoice_payments') {
      const found = payments.filter((x) => x['invoice'] === query.get('invoice') && (!query.get('status') || x['status'] === query.get('status')));
      return { status: 200, body: list(found, '/v1/invoice_payments') };
    }
    if ((m = /^\/v1\/invoices\/(in_\w+)\/pay$/.exec(path)) && method === 'POST') {
      const invoice = invoices.get(m[1]!);
      if (!invoice) return missing('invoice', m[1]!);
      if (invoice['status'] !== 'open') return invalid('Invoice is already paid', 'invoice');
      if (cardPays) {
        invoice['status'] = 'paid';
        invoice['amount_paid'] = invoice['amount_due'];
        return { status: 200, body: invoice };
      }
      return {
        status: 402,
        body: { error: { type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } },
      };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = typeof p['payment_intent'] === 'string' ? p['payment_intent'] : null;
      const paid = payments.find((x) => (x['payment'] as Obj)['payment_intent'] === pi);
      if (!paid) return invalid(`No such payment_intent: '${pi ?? ''}'`, 'payment_intent');
      const refund = {
        id: newId('re'),
        object: 'refund',
        amount: paid['amount_paid'],
        currency: 'gbp',
        payment_intent: pi,
        charge: newId('ch'),
        status: 'succeeded',
        metadata: p['metadata'] ?? {},
        created: now,
      };
      refunds.push(refund);
      return { status: 200, body: refund };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` } } };
  }

  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const params = parseForm(req.method === 'GET' ? url.searchParams.toString() : text);
      requests.push({ method: req.method ?? '', path: url.pathname, form: text, params, version: req.headers['stripe-version'] as string | undefined });
      let out: { status: number; body: unknown };
      if (req.headers.authorization !== `Bearer ${standInKey}`) {
        out = { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****0000' } } };
      } else if (failure) {
        out = { status: failure.status, body: { error: failure.error } };
        failure = null;
      } else out = answer(req.method ?? '', url.pathname, url.searchParams, params);
      const body = JSON.stringify(out.body);
      res.writeHead(out.status, { 'content-type': 'application/json', 'request-id': newId('req'), 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let stopped: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    sessions,
    subscriptions,
    invoices,
    refunds,
    to: (method, path) => requests.filter((r) => r.method === method && r.path === path),
    failNext(status, type, message, code) {
      failure = { status, error: { type, message, ...(code ? { code } : {}) } };
    },
    completesBeforeExpire(sessionId) {
      racing.add(sessionId);
    },
    completeCheckout(sessionId, at) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const trialDays = Number((session['subscription_data'] as Obj)['trial_period_days'] ?? 0);
      const sub = subscriptionOf(
        newId('sub'),
        String(session['customer']),
        trialDays > 0 ? 'trialing' : 'active',
        at + (trialDays > 0 ? trialDays : 30) * 86_400,
        (session['subscription_data'] as Obj)['metadata'],
      );
      subscriptions.set(String(sub['id']), sub);
      Object.assign(session, { status: 'complete', subscription: sub['id'], payment_status: trialDays > 0 ? 'no_payment_required' : 'paid' });
      return [eventOf('checkout.session.completed', { ...session }, at), eventOf('customer.subscription.created', structuredClone(sub), at)];
    },
    cardPays(pays) {
      cardPays = pays;
    },
    addInvoice(subscriptionId, status, amount) {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`no subscription ${subscriptionId}`);
      const invoice = {
        id: newId('in'),
        object: 'invoice',
        customer: sub['customer'],
        status,
        currency: 'gbp',
        amount_due: amount,
        amount_paid: status === 'paid' ? amount : 0,
        parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId, metadata: {} }, quote_details: null },
      };
      invoices.set(invoice.id, invoice);
      if (status === 'paid') {
        payments.push({
          id: newId('inpay'),
          object: 'invoice_payment',
          invoice: invoice.id,
          amount_paid: amount,
          currency: 'gbp',
          status: 'paid',
          is_default: true,
          payment: { type: 'payment_intent', payment_intent: newId('pi') },
        });
      }
      return invoice;
    },
    stop: () =>
      (stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
