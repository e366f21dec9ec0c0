/**
 * The HTTP adapter: a polka app whose routes are generated from the
 * operation registry, answered under /v1 and /api/v1.
 */
import type { IncomingMessage } from 'node:http';
import polka, { type Polka, type Request } from 'polka';
import { AppError } from '../engine/errors.js';
import { checkAccess, type ClearableCache, type Ctx, type Operation, type Principal } from '../engine/operation.js';
import { parseOperationInput } from '../engine/input.js';
import { KeyCache } from '../engine/integration/api-keys.js';
import { sessionPrincipal } from '../engine/users/sessions.js';
import type { Clock } from '../engine/clock.js';
import type { Mailer } from '../engine/mail.js';
import type { HmrcSettings } from '../engine/hmrc.js';
import type { BillingSettings } from '../engine/stripe.js';
import { strictPolicy, type WebhookPolicy } from '../engine/webhook-policy.js';
import { appErrorOf } from '../store/driver-errors.js';
import { planOf, type Plan } from '../engine/organisation/plan.js';
import { fingerprintOf, runIdempotent } from '../engine/integration/idempotency.js';
import type { RequestLogWriter } from '../engine/integration/request-log-writer.js';
import {
  defaultLimits,
  RateLimited,
  RateLimiter,
  SharedRateLimiter,
  showStanding,
  type Limit,
  type Limiter,
  type RateLimits,
  type Standing,
} from './rate-limit.js';
import type { Store } from '../store/store.js';
import { defaultBodyLimit, maxUploadBytes, readJsonBody, readSignedBody, readUploadBody, uploadQueryFields } from './body.js';
import { envelopeOf, send, sendError, sendFile } from './envelope.js';
import { prefixes, routeOf, routeOrder } from './routes.js';
import { idempotencyHeader, idempotencyKeyOf, idempotencyPath } from './idempotency.js';
import type { PdfPool } from './pdf-workers.js';
import { MaintenanceGate, UnderMaintenance } from './maintenance.js';
import { AfterResponse } from './after-response.js';

export interface AppOptions {
  readonly store: Store;
  readonly clock: Clock;
  readonly operations: readonly Operation[];
  readonly bodyLimit?: number;
  /** Enforce the rate limits, the plans' and the per-IP ones (acct serve does; tests of other things need not). */
  readonly rateLimits?: boolean;
  /**
   * One reverse proxy in front (nginx, a load balancer): the client's address
   * is the last one in its X-Forwarded-For, for the per-IP limits and the
   * request log. Off by default, when that header is a client's to forge.
   */
  readonly trustProxy?: boolean;
  /** Other values for the rate limits than defaultLimits (perIp merged into its table), for tests. */
  readonly limits?: Partial<RateLimits>;
  /** Where authenticated requests are logged (none: not logged). */
  readonly requestLog?: RequestLogWriter;
  /** Which webhook URLs may be registered (strict by default). */
  readonly webhookPolicy?: WebhookPolicy;
  /** Outgoing e-mail (invoices sent with sendEmail), when configured. */
  readonly mailer?: Mailer | null;
  /** HMRC's VAT (MTD) API: base URL and client credentials. */
  readonly hmrc?: HmrcSettings;
  /** The card-payment provider (Stripe): secret key, base URL, webhook signing secret, return URL. */
  readonly billing?: BillingSettings;
  /** Where unexpected failures are reported (stderr by default). */
  readonly logError?: (error: AppError) => void;
  /** Worker threads that render PDFs, each organisation's share capped (none: rendered on the event loop). */
  readonly pdfPool?: PdfPool;
  /** Where the work operations leave for after their responses is kept track of (the server waits for it on closing). */
  readonly afterResponse?: AfterResponse;
}

const bearer = /^Bearer\s+(\S+)\s*$/i;

/** The API key of the Authorization header, if it has the Bearer form. */
function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return header ? bearer.exec(header)?.[1] : undefined;
}

/** The caller: an API key (sk_…) or a user's session access token (at_…). */
async function principalOf(req: IncomingMessage, keys: KeyCache, store: Store, clock: Clock): Promise<Principal> {
  if (!req.headers.authorization) throw new AppError('unauthorized', 'missing API key: send Authorization: Bearer sk_live_…');
  const token = bearerToken(req);
  if (!token) throw new AppError('unauthorized', 'malformed Authorization header: expected Bearer <API key>');
  return token.startsWith('at_') ? sessionPrincipal(store.platform.db, clock, token) : keys.authenticate(token);
}

const userAgentOf = (req: IncomingMessage): string | null => (typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 500) : null);

/** Node's error for a request whose client closed the connection before its body was read ('aborted'). */
function hungUp(req: IncomingMessage, e: unknown): boolean {
  return (req.socket?.destroyed ?? true) && !req.complete && (e as NodeJS.ErrnoException | null)?.code === 'ECONNRESET';
}

type Response = Parameters<typeof sendError>[0];

export function createApp(options: AppOptions): Polka {
  const { store, clock } = options;
  const keys = new KeyCache(store.platform);
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  const logError =
    options.logError ??
    ((e: AppError) => {
      const cause = e.cause instanceof Error ? `: ${e.cause.stack ?? e.cause.message}` : e.cause === undefined ? '' : `: ${JSON.stringify(e.cause)}`;
      console.error(`internal error: ${e.code}: ${e.message}${cause}`);
    });
  const afterResponse = options.afterResponse ?? new AfterResponse();

  /** Answer a failure; the error member sent. */
  const fail = (res: Parameters<typeof sendError>[0], e: unknown, req?: IncomingMessage) => {
    const error = appErrorOf(e);
    // server_busy is load shed on purpose (the PDF queue is full), and maintenance refusals are asked for: neither is a failure to report.
    // Nor is a client that hung up mid-request: nothing failed here, and there is nobody to answer.
    const reported = error.code !== 'server_busy' && !(error instanceof UnderMaintenance) && !(req !== undefined && hungUp(req, e));
    if (error.status >= 500 && reported) logError(error);
    if (!res.headersSent) sendError(res, error);
    else res.destroy();
    return error.toJSON();
  };

  const app = polka({
    onNoMatch: (req, res) => sendError(res, new AppError('not_found', `no route for ${req.method} ${req.path}`)),
    onError: (err, req, res) => void fail(res, err, req),
  });

  // On PostgreSQL several processes may serve the same books: they count together, in the database.
  const limiter: Limiter | null = !options.rateLimits ? null : store.kind === 'postgres' ? new SharedRateLimiter(store, clock) : new RateLimiter(clock);
  // Per IP address in this process's memory even then: a row per address in the database would grow without end.
  const ipLimiter: Limiter | null = options.rateLimits ? new RateLimiter(clock) : null;
  /** The socket's peer, or behind a trusted proxy the address it says it forwarded for (the last in X-Forwarded-For). */
  const clientAddress = (req: IncomingMessage): string | null => {
    if (options.trustProxy) {
      const forwarded = req.headers['x-forwarded-for'];
      const last = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').at(-1)?.trim();
      if (last) return last;
    }
    return req.socket.remoteAddress ?? null;
  };
  const limits: RateLimits = { ...defaultLimits, ...options.limits, perIp: { ...defaultLimits.perIp, ...options.limits?.perIp } };
  const plans = new Map<string, { plan: Plan; until: number }>();
  /** The plan of an organisation, re-read once a minute. */
  const cachedPlanOf = async (organisationId: string) => {
    const cached = plans.get(organisationId);
    if (cached && cached.until > clock.now().getTime()) return cached.plan;
    const plan = await planOf(store, organisationId);
    plans.set(organisationId, { plan, until: clock.now().getTime() + 60_000 });
    return plan;
  };
  const maintenance = new MaintenanceGate(store.platform);
  /** The caches an administrator may empty (POST /admin/system/clear-cache). */
  const caches: readonly ClearableCache[] = [
    { name: 'api-keys', description: 'API keys authenticated, by hash', clear: () => keys.clear() },
    {
      name: 'plans',
      description: "organisations' plans, for the rate limits (each re-read after a minute)",
      clear: () => {
        const held = plans.size;
        plans.clear();
        return held;
      },
    },
  ];
  /**
   * Count the request against a limit, and show in the X-RateLimit-* headers where the limit nearest to
   * refusing it stands (`shown`, of the limits already taken), or the one that refused it; the standing shown.
   */
  const take = async (limiter: Limiter, res: Response, shown: Standing | null, bucket: string, limit: Limit, what: string) => {
    let s: Standing;
    try {
      s = await limiter.take(bucket, limit, what);
    } catch (e) {
      if (e instanceof RateLimited) showStanding(res, e.standing);
      throw e;
    }
    if (shown !== null && shown.remaining < s.remaining) return shown;
    showStanding(res, s);
    return s;
  };
  /**
   * The plan's limit, taken before the scope check: a refusal counts too, else a key without the scope could send refusals without end.
   * An administrator's request to an administrator endpoint is the platform's business: it takes the administrator's own limit instead.
   */
  const limitPlan = async (op: Operation, principal: Principal, res: Response) => {
    if (!limiter) return null;
    if (op.access === 'admin' && principal.admin) {
      return take(limiter, res, null, `admin:${principal.admin.userId ?? principal.admin.email}`, limits.administrator, 'administrator requests');
    }
    const plan = await cachedPlanOf(principal.organisationId);
    const what = `the ${plan === 'sole_trader' ? 'Sole Trader' : 'Limited Company'} plan`;
    return take(limiter, res, null, `org:${principal.organisationId}`, limits.plans[plan], what);
  };
  /**
   * The operation's own limits, taken after the scope check: key creation's (a key that may not make keys cannot
   * use up the slots of one that may), and per client IP address those of the requests that make or probe accounts,
   * before the body is read, so that a refused one writes nothing.
   */
  const limitOperation = async (op: Operation, principal: Principal | null, req: IncomingMessage, res: Response, shown: Standing | null) => {
    if (!limiter || !ipLimiter) return;
    if (principal && (op.name === 'keys.create' || op.name === 'keys.rotate'))
      shown = await take(limiter, res, shown, `keys:${principal.organisationId}`, limits.keyCreation, 'creating API keys');
    const perIp = limits.perIp[op.name];
    if (perIp) await take(ipLimiter, res, shown, `ip:${op.name}:${clientAddress(req) ?? 'unknown'}`, perIp, `${op.name} from one IP address`);
  };

  const handler = (op: Operation) => async (req: Request, res: Response) => {
    const started = performance.now();
    let principal: Principal | null = null;
    let idempotencyKey: string | undefined;
    let error: unknown;
    let requestBody: unknown;
    let responseBody: unknown;
    if (options.requestLog) {
      const log = options.requestLog;
      res.once('finish', () => {
        // An administrator's request is about the platform, not the organisation the administrator belongs to: the audit log
        // keeps it, and no organisation's request log (which its keys read) may show another organisation's data.
        if (!principal || op.access === 'admin') return;
        log.add({
          organisationId: principal.organisationId,
          mode: principal.mode,
          method: op.method,
          path: req.url ?? req.path,
          route: op.path,
          status: res.statusCode,
          latencyMs: Math.round(performance.now() - started),
          keyId: principal.keyId,
          keyPrefix: principal.session ? null : (bearerToken(req)?.slice(0, 8) ?? null),
          idempotencyKey: idempotencyKey ?? null,
          error: res.statusCode >= 400 ? error : undefined,
          ipAddress: clientAddress(req),
          userAgent: userAgentOf(req),
          headers: req.headers,
          requestBody,
          // A read's answer (a GET, not refused) is the resource as it stood, and the bulk of the log's bytes: not kept.
          responseBody: op.method === 'GET' && res.statusCode < 400 ? undefined : responseBody,
          secrets: op.bodySecrets.length === 0 ? op.secrets : [...op.secrets, ...op.bodySecrets],
        });
      });
    }
    try {
      principal = op.access === 'public' ? null : await principalOf(req, keys, store, clock);
      const shown = principal ? await limitPlan(op, principal, res) : null;
      checkAccess(op.access, principal);
      await maintenance.check(op, principal);
      await limitOperation(op, principal, req, res, shown);
      // An operation without a body still reads one (but a GET's), so that malformed JSON or a field it does not take is refused.
      const body = !op.schemas.body
        ? op.method === 'GET'
          ? undefined
          : await readJsonBody(req, bodyLimit)
        : op.signed
          ? await readSignedBody(req, bodyLimit, op.signed.header)
          : op.upload
            ? await readUploadBody(req, Math.max(bodyLimit, op.upload.maxBytes ?? maxUploadBytes), op.upload, op.schemas.body)
            : await readJsonBody(req, bodyLimit);
      requestBody = body;
      // The query fields an upload sent as the raw body took as body fields are not the operation's query parameters.
      const bodyFields = op.upload && op.schemas.body ? new Set(uploadQueryFields(req, op.upload, op.schemas.body)) : new Set<string>();
      const query = Object.fromEntries(Object.entries(req.query).filter(([k]) => !bodyFields.has(k)));
      const pool = options.pdfPool;
      const org = principal?.organisationId;
      const ctx: Ctx = {
        clock,
        store,
        platform: store.platform,
        principal,
        mailer: options.mailer ?? null,
        webhookPolicy: options.webhookPolicy ?? strictPolicy,
        request: {
          method: op.method,
          path: req.path,
          ipAddress: clientAddress(req),
          userAgent: userAgentOf(req),
        },
        caches,
        logFailure: logError,
        afterResponse: (task) => afterResponse.add(res, task, logError),
        ...(options.hmrc ? { hmrc: options.hmrc } : {}),
        ...(options.billing ? { billing: options.billing } : {}),
        ...(pool && org !== undefined ? { renderPdf: (data: Parameters<PdfPool['run']>[1]) => pool.run(org, data) } : {}),
      };
      idempotencyKey = op.method !== 'GET' && principal ? idempotencyKeyOf(req.headers[idempotencyHeader]) : undefined;
      if (idempotencyKey !== undefined) {
        const path = idempotencyPath(op, req.params);
        const request = { key: idempotencyKey, method: op.method, path, fingerprint: fingerprintOf(op.method, path, body, query) };
        // A refusal of the input is the key's first result too, stored and replayed as the operation's own 4xx are.
        let input: Record<string, unknown> | undefined;
        let refusal: AppError | undefined;
        try {
          input = parseOperationInput(op, { params: req.params, query, body });
        } catch (e) {
          refusal = appErrorOf(e);
          if (refusal.status >= 500) throw e;
        }
        const stored = await runIdempotent(ctx, refusal ? refusing(op, refusal) : op, input, request, envelopeOf);
        error = (stored.body as { error?: unknown }).error;
        responseBody = stored.body;
        send(res, stored.status, stored.body, stored.replayed ? { 'idempotent-replayed': 'true' } : {});
        return;
      }
      const result = await op.run(ctx, parseOperationInput(op, { params: req.params, query, body }));
      if (result.file) sendFile(res, result.file);
      else send(res, op.status, (responseBody = envelopeOf({ result })));
    } catch (e) {
      error = fail(res, e, req);
      responseBody = { success: false, error };
    }
  };

  /** The operation as its refused input makes it: nothing to call or write, only the refusal to store under the key. */
  const refusing = (op: Operation, refusal: AppError): Operation => ({
    ...op,
    external: null,
    run: () => Promise.reject(refusal),
    local: () => Promise.reject(refusal),
  });

  for (const op of [...options.operations].sort(routeOrder)) {
    const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    for (const path of [op.path, ...op.aliases]) for (const prefix of prefixes) app[method](prefix + routeOf(path), handler(op));
  }
  return app;
}
