/**
 * A stand-in for HMRC's VAT (MTD) API 1.0 and its OAuth 2.0 endpoints, on
 * 127.0.0.1 and a free port, for the tests of acct's real client (this
 * machine cannot reach HMRC). It speaks HMRC's documented paths, JSON and
 * errors (github.com/hmrc/vat-api, resources/public/api/conf/1.0/application.yaml
 * and app/v1/models/errors), and on every API call asserts, failing the
 * test: the Accept header of version 1.0, a bearer token it issued and has
 * not expired, and the 14 fraud prevention headers of DESKTOP_APP_DIRECT.
 * Tokens last as long as a test says: expireAccessTokens() ends all those
 * issued so far, as 4 hours passing would.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { fraudHeaderFaults } from './fraud-header-checks.js';

export interface Obligation {
  start: string;
  end: string;
  due: string;
  status: 'O' | 'F';
  periodKey: string;
  received?: string;
}

/** The body of POST /returns as HMRC takes it. */
export interface ReturnBody {
  readonly periodKey: string;
  readonly vatDueSales: number;
  readonly vatDueAcquisitions: number;
  readonly totalVatDue: number;
  readonly vatReclaimedCurrPeriod: number;
  readonly netVatDue: number;
  readonly totalValueSalesExVAT: number;
  readonly totalValuePurchasesExVAT: number;
  readonly totalValueGoodsSuppliedExVAT: number;
  readonly totalAcquisitionsExVAT: number;
  readonly finalised?: boolean;
}

export interface StandInOptions {
  /** The VAT registration number of the HMRC user who signs in. */
  readonly vrn?: string;
  /** HMRC's today: a period ending on or after it has not ended. */
  readonly today?: string;
  readonly obligations?: readonly Obligation[];
  /** Returns HMRC already holds (sent by other software), by period key. */
  readonly held?: Readonly<Record<string, ReturnBody>>;
  readonly liabilities?: readonly unknown[];
  readonly payments?: readonly unknown[];
  /** The user refuses to grant access at /oauth/authorize. */
  readonly deny?: boolean;
  /** Awaited before a POST /returns is answered (a slow HMRC). */
  readonly hold?: () => Promise<void>;
}

export interface StandIn {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly obligations: Obligation[];
  /** The returns HMRC holds, by period key. */
  readonly held: Map<string, ReturnBody>;
  /** Each POST /returns body exactly as it arrived (the text), in order. */
  readonly posted: string[];
  /** Each API call (not OAuth): method, path and query. */
  readonly calls: string[];
  /** Each form posted to /oauth/token. */
  readonly tokenRequests: Record<string, string>[];
  /** Access tokens issued, oldest first. */
  readonly accessTokens: string[];
  /** Every access token issued so far now answers 401 INVALID_CREDENTIALS. */
  expireAccessTokens(): void;
  /** Every refresh token issued so far is refused (invalid_grant). */
  revokeRefreshTokens(): void;
  /** The next API call is answered with this status, body (and headers), whatever it asks. */
  failNext(status: number, body: unknown, headers?: Record<string, string>): void;
  /** HMRC goes down: the port refuses connections from now on. */
  stop(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};
const error = (res: http.ServerResponse, status: number, code: string, message: string) => json(res, status, { code, message });
/** A wrapped error, as HMRC sends INVALID_REQUEST and BUSINESS_ERROR. */
const wrapped = (res: http.ServerResponse, status: number, outer: string, code: string, message: string, path?: string) =>
  json(res, status, {
    code: outer,
    message: outer === 'BUSINESS_ERROR' ? 'Business validation error' : 'Invalid request',
    errors: [{ code, message, ...(path ? { path } : {}) }],
  });

const isDate = (v: string | null): v is string => v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v));
const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;
/** Pounds as pence, for comparing HMRC's two-decimal figures exactly. */
const p = (pounds: number) => Math.round(pounds * 100);

async function bodyOf(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface Issued {
  readonly vrn: string;
  readonly scope: string;
  expired: boolean;
}

export async function startHmrcStandIn(t: Test, options: StandInOptions = {}): Promise<StandIn> {
  const vrn = options.vrn ?? '123456782';
  const today = options.today ?? '2026-06-01';
  const clientId = `client-${randomUUID().slice(0, 8)}`;
  const clientSecret = `secret-${randomUUID()}`;
  const obligations = (options.obligations ?? []).map((o) => ({ ...o }));
  const held = new Map(Object.entries(options.held ?? {}));
  const codes = new Map<string, { redirectUri: string; scope: string }>();
  const access = new Map<string, Issued>();
  const refresh = new Map<string, { scope: string; used: boolean }>();
  const posted: string[] = [];
  const calls: string[] = [];
  const tokenRequests: Record<string, string>[] = [];
  const accessTokens: string[] = [];
  let failure: { status: number; body: unknown; headers: Record<string, string> } | null = null;
  let bundles = 0;

  const issue = (scope: string) => {
    const a = `access-${randomUUID()}`;
    const r = `refresh-${randomUUID()}`;
    access.set(a, { vrn, scope, expired: false });
    refresh.set(r, { scope, used: false });
    accessTokens.push(a);
    return { access_token: a, refresh_token: r, expires_in: 14400, scope, token_type: 'bearer' };
  };

  function authorize(url: URL, res: http.ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri');
    const scope = q.get('scope') ?? '';
    if (q.get('response_type') !== 'code' || q.get('client_id') !== clientId || !redirectUri) {
      return error(res, 400, 'INVALID_REQUEST', 'response_type=code, a known client_id and a redirect_uri are required');
    }
    if (!scope.split(' ').includes('read:vat') || !scope.split(' ').includes('write:vat')) {
      t.fail(`authorisation asked for scope "${scope}", not read:vat and write:vat`);
    }
    const back = new URL(redirectUri);
    if (options.deny) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'user denied the authorization');
      back.searchParams.set('error_code', 'USER_DENIED_AUTHORIZATION');
    } else {
      const code = randomUUID().replace(/-/g, '');
      codes.set(code, { redirectUri, scope });
      back.searchParams.set('code', code);
    }
    if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
    res.writeHead(303, { location: back.toString() }).end();
  }

  function token(form: URLSearchParams, res: http.ServerResponse) {
    tokenRequests.push(Object.fromEntries(form));
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
      return json(res, 401, { error: 'invalid_client', error_description: 'invalid client id or secret' });
    }
    if (form.get('grant_type') === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      if (!code || code.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant', error_description: 'code is invalid' });
      codes.delete(form.get('code')!);
      return json(res, 200, issue(code.scope));
    }
    if (form.get('grant_type') === 'refresh_token') {
      const old = refresh.get(form.get('refresh_token') ?? '');
      if (!old || old.used) return json(res, 400, { error: 'invalid_grant', error_description: 'refresh_token is invalid' });
      old.used = true;
      return json(res, 200, issue(old.scope));
    }
    return json(res, 400, { error: 'unsupported_grant_type' });
  }

  /** The checks HMRC's platform makes before an endpoint runs; the caller's token, or null when answered. */
  function admit(req: http.IncomingMessage, res: http.ServerResponse, scope: string): Issued | null {
    const faults = fraudHeaderFaults(req.headers);
    if (faults.length > 0) t.fail(`fraud prevention headers of ${req.method} ${req.url}: ${faults.join('; ')}`);
    if (req.headers.accept !== 'application/vnd.hmrc.1.0+json') {
      t.fail(`${req.method} ${req.url} sent Accept: ${req.headers.accept}`);
      error(res, 406, 'ACCEPT_HEADER_INVALID', 'The accept header is missing or invalid');
      return null;
    }
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer) {
      t.fail(`${req.method} ${req.url} sent no bearer token`);
      error(res, 401, 'MISSING_CREDENTIALS', 'Authentication information is not provided');
      return null;
    }
    const user = access.get(bearer);
    if (!user || user.expired) {
      error(res, 401, 'INVALID_CREDENTIALS', 'Invalid Authentication information provided');
      return null;
    }
    if (!user.scope.split(' ').includes(scope)) {
      error(res, 401, 'INVALID_SCOPE', `the token lacks ${scope}`);
      return null;
    }
    return user;
  }

  function obligationsOf(q: URLSearchParams, res: http.ServerResponse) {
    const [from, to, status] = [q.get('from'), q.get('to'), q.get('status')];
    if (status !== null && status !== 'O' && status !== 'F') return error(res, 400, 'INVALID_STATUS', 'Invalid status');
    if (status !== 'O' || from !== null || to !== null) {
      if (!isDate(from)) return error(res, 400, 'INVALID_DATE_FROM', 'Invalid date from');
      if (!isDate(to)) return error(res, 400, 'INVALID_DATE_TO', 'Invalid date to');
      if (days(from, to) < 0 || days(from, to) > 366) return error(res, 400, 'INVALID_DATE_RANGE', 'Invalid date range, must be 366 days or less');
    }
    const list = obligations.filter((o) => (from === null || o.end >= from) && (to === null || o.start <= to) && (status === null || o.status === status));
    if (list.length === 0) return error(res, 404, 'NOT_FOUND', 'The requested resource could not be found');
    json(res, 200, { obligations: list });
  }

  function submit(text: string, res: http.ServerResponse) {
    posted.push(text);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return json(res, 400, { statusCode: 400, message: 'Invalid Json' });
    }
    const periodKey = body['periodKey'];
    if (typeof periodKey !== 'string' || !/^[#0-9A-Z]{4}$/.test(periodKey)) {
      return wrapped(res, 400, 'INVALID_REQUEST', 'PERIOD_KEY_INVALID', 'period key should be a 4 character string', '/periodKey');
    }
    for (const f of ['vatDueSales', 'vatDueAcquisitions', 'totalVatDue', 'vatReclaimedCurrPeriod', 'netVatDue']) {
      const v = body[f];
      if (typeof v !== 'number' || Math.abs(v * 100 - Math.round(v * 100)) > 1e-6 || (f === 'netVatDue' && v < 0)) {
        return wrapped(res, 400, 'INVALID_REQUEST', 'INVALID_MONETARY_AMOUNT', 'amount should be a monetary value (to 2 decimal places)', `/${f}`);
      }
    }
    for (const f of ['totalValueSalesExVAT', 'totalValuePurchasesExVAT', 'totalValueGoodsSuppliedExVAT', 'totalAcquisitionsExVAT']) {
      if (!Number.isInteger(body[f])) return wrapped(res, 400, 'INVALID_REQUEST', 'INVALID_MONETARY_AMOUNT', 'The value must be a whole number', `/${f}`);
    }
    const b = body as unknown as ReturnBody;
    if (p(b.totalVatDue) !== p(b.vatDueSales) + p(b.vatDueAcquisitions)) {
      return wrapped(res, 400, 'INVALID_REQUEST', 'VAT_TOTAL_VALUE', 'totalVatDue should be equal to vatDueSales + vatDueAcquisitions', '/totalVatDue');
    }
    if (p(b.netVatDue) !== Math.abs(p(b.totalVatDue) - p(b.vatReclaimedCurrPeriod))) {
      return wrapped(
        res,
        400,
        'INVALID_REQUEST',
        'VAT_NET_VALUE',
        'netVatDue should be the difference between totalVatDue and vatReclaimedCurrPeriod',
        '/netVatDue',
      );
    }
    if (body['finalised'] !== true) {
      return wrapped(res, 403, 'BUSINESS_ERROR', 'NOT_FINALISED', 'The return cannot be accepted without a declaration it is finalised.', '/finalised');
    }
    const obligation = obligations.find((o) => o.periodKey === periodKey);
    if (!obligation) return wrapped(res, 400, 'INVALID_REQUEST', 'PERIOD_KEY_INVALID', 'no obligation has this period key', '/periodKey');
    if (held.has(periodKey)) {
      return wrapped(res, 403, 'BUSINESS_ERROR', 'DUPLICATE_SUBMISSION', 'The VAT return was already submitted for the given period.');
    }
    if (obligation.end >= today) {
      return error(res, 403, 'TAX_PERIOD_NOT_ENDED', 'The remote endpoint has indicated that the submission is for a tax period that has not ended');
    }
    held.set(periodKey, b);
    obligation.status = 'F';
    obligation.received = today;
    bundles++;
    const payable = p(b.totalVatDue) > p(b.vatReclaimedCurrPeriod);
    json(
      res,
      201,
      {
        processingDate: `${today}T09:30:00.000Z`,
        formBundleNumber: String(256660290000 + bundles),
        paymentIndicator: payable ? 'DD' : 'BANK',
        ...(payable ? { chargeRefNumber: `XQ00000000${String(bundles).padStart(4, '0')}` } : {}),
      },
      { 'receipt-id': randomUUID(), 'receipt-timestamp': `${today}T09:30:00Z`, 'x-correlationid': randomUUID() },
    );
  }

  function ranged(q: URLSearchParams, res: http.ServerResponse, name: 'liabilities' | 'payments', items: readonly unknown[], dateOf: (i: never) => string) {
    const [from, to] = [q.get('from'), q.get('to')];
    if (!isDate(from)) return error(res, 400, 'DATE_FROM_INVALID', 'The provided from date is invalid');
    if (!isDate(to) || to > today) return error(res, 400, 'DATE_TO_INVALID', 'The provided to date is invalid');
    if (days(from, to) < 0 || days(from, to) > 365) return error(res, 400, 'DATE_RANGE_INVALID', 'Invalid date range, must be 365 days or less');
    const list = items.filter((i) => dateOf(i as never) >= from && dateOf(i as never) <= to);
    if (list.length === 0) return error(res, 404, 'NOT_FOUND', 'The requested resource could not be found');
    json(res, 200, { [name]: list });
  }

  async function api(req: http.IncomingMessage, url: URL, res: http.ServerResponse) {
    const m = /^\/organisations\/vat\/([^/]+)\/(obligations|returns|liabilities|payments)(?:\/([^/]+))?$/.exec(url.pathname);
    if (!m) return error(res, 404, 'MATCHING_RESOURCE_NOT_FOUND', 'A resource with the name in the request can not be found in the API');
    calls.push(`${req.method} ${url.pathname}${url.search}`);
    const text = await bodyOf(req);
    const user = admit(req, res, req.method === 'POST' ? 'write:vat' : 'read:vat');
    if (!user) return;
    if (failure) {
      const f = failure;
      failure = null;
      return json(res, f.status, f.body, f.headers);
    }
    const [, rawVrn, resource, key] = m;
    const asked = decodeURIComponent(rawVrn!);
    if (!/^\d{9}$/.test(asked)) return error(res, 400, 'VRN_INVALID', 'The provided VRN is invalid');
    if (asked !== user.vrn) return error(res, 403, 'CLIENT_OR_AGENT_NOT_AUTHORISED', 'The client and/or agent is not authorised');
    if (resource === 'obligations' && req.method === 'GET') return obligationsOf(url.searchParams, res);
    if (resource === 'returns' && req.method === 'POST' && key === undefined) {
      await options.hold?.();
      return submit(text, res);
    }
    if (resource === 'returns' && req.method === 'GET' && key !== undefined) {
      const periodKey = decodeURIComponent(key);
      if (!/^[#0-9A-Z]{4}$/.test(periodKey)) return error(res, 400, 'PERIOD_KEY_INVALID', 'Invalid period key');
      const ret = held.get(periodKey);
      if (!ret) return error(res, 404, 'NOT_FOUND', 'The remote endpoint has indicated that no data can be found');
      const { finalised: _, ...view } = ret;
      return json(res, 200, view);
    }
    if (resource === 'liabilities' && req.method === 'GET') {
      return ranged(
        url.searchParams,
        res,
        'liabilities',
        options.liabilities ?? [],
        (l: { taxPeriod?: { to: string }; due?: string }) => l.taxPeriod?.to ?? l.due ?? '',
      );
    }
    if (resource === 'payments' && req.method === 'GET') {
      return ranged(url.searchParams, res, 'payments', options.payments ?? [], (pay: { received?: string }) => pay.received ?? '');
    }
    error(res, 404, 'MATCHING_RESOURCE_NOT_FOUND', 'A resource with the name in the request can not be found in the API');
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = async () => {
      if (req.method === 'GET' && url.pathname === '/oauth/authorize') return authorize(url, res);
      if (req.method === 'POST' && url.pathname === '/oauth/token') return token(new URLSearchParams(await bodyOf(req)), res);
      return api(req, url, res);
    };
    route().catch((e: unknown) => {
      t.fail(`the stand-in failed: ${String(e)}`);
      if (!res.headersSent) error(res, 500, 'SERVER_ERROR', 'stand-in failure');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }));
  t.teardown(stop);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    obligations,
    held,
    posted,
    calls,
    tokenRequests,
    accessTokens,
    expireAccessTokens: () => access.forEach((a) => (a.expired = true)),
    revokeRefreshTokens: () => refresh.forEach((r) => (r.used = true)),
    failNext: (status, body, headers = {}) => void (failure = { status, body, headers }),
    stop,
  };
}
