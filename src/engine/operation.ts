/**
 * An operation is declared once: name, summary, who may call it, its HTTP
 * route, its input schema and its handler. The HTTP router, the CLI, the
 * OpenAPI document and the man pages are all generated from the registry.
 */
import { z } from 'zod';
import type { Clock } from './clock.js';
import type { Mailer } from './mail.js';
import type { WebhookPolicy } from './webhook-policy.js';
import type { HmrcSettings } from './hmrc.js';
import type { BillingSettings } from './stripe.js';
import { AppError } from './errors.js';
import { scopes, type Scope } from './scopes.js';
import type { DbHandle, Mode, Store } from '../store/store.js';
import type { OrgDb, PlatformDb } from '../store/tables.js';
import type { InvoicePdfData } from '../pdf/invoice-data.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation:
 * - a scope: a key holding that scope;
 * - `any-key`: any valid key of the organisation;
 * - `all-scopes`: a key holding every scope (organisation administration and key management);
 * - `session`: a user's session token (from POST /auth/login), not an API key;
 * - `admin`: the session of a user with administrator status (or the local operator of the files, on the CLI);
 * - `public`: no key at all.
 */
export type Access = Scope | 'any-key' | 'all-scopes' | 'session' | 'admin' | 'public';

/** Who may call an operation, in words (for --help, man pages and OpenAPI). */
export function describeAccess(access: Access): string {
  switch (access) {
    case 'public':
      return 'no API key needed';
    case 'any-key':
      return 'any valid API key';
    case 'all-scopes':
      return 'a key holding all scopes';
    case 'session':
      return 'a user session token';
    case 'admin':
      return "an administrator's session token";
    default:
      return `scope ${access}`;
  }
}

/** Whoever is calling: an API key, or the local CLI user who owns the files. */
export interface Principal {
  readonly organisationId: string;
  readonly mode: Mode;
  readonly scopes: readonly Scope[];
  readonly keyId: string | null;
  /** Who records changes (createdBy): the API key, or the local user of the CLI. */
  readonly actor: Actor;
  /** The user and login, when the bearer is a session token rather than an API key. */
  readonly session?: { readonly userId: number; readonly sessionId: string };
  /** An administrator: the session of a user with administrator status, or the local operator of the files (the CLI; no user id). */
  readonly admin?: Administrator;
}

export interface Administrator {
  readonly userId: number | null;
  readonly email: string;
}

/** The HTTP request an operation serves, as the audit log records it (the CLI's: its command, no address). */
export interface RequestInfo {
  readonly method: string;
  readonly path: string;
  readonly ipAddress: string | null;
  readonly userAgent: string | null;
}

export interface Actor {
  readonly id: string;
  readonly name: string;
}

/** The organisation's books the operation works on. */
export interface OrgScope extends DbHandle<OrgDb> {
  readonly id: string;
  readonly mode: Mode;
}

export interface Ctx {
  readonly clock: Clock;
  readonly store: Store;
  readonly platform: DbHandle<PlatformDb>;
  readonly principal: Principal | null;
  /** Outgoing e-mail, when an SMTP server is configured (--smtp, $ACCT_SMTP_URL). */
  readonly mailer?: Mailer | null;
  /**
   * The caller's books bound to a database transaction already open (the
   * one that also stores an Idempotency-Key record): reads and writes join it.
   */
  readonly books?: OrgScope;
  /** Which webhook URLs may be registered (strict unless acct serve allows http or private addresses). */
  readonly webhookPolicy?: WebhookPolicy;
  /** HMRC's VAT (MTD) API: its base URL and this installation's client credentials (--hmrc-base-url, $ACCT_HMRC_*). */
  readonly hmrc?: HmrcSettings;
  /** The card-payment provider (Stripe) that subscriptions are billed through: key, base URL, webhook secret (--stripe-*, $ACCT_STRIPE_*). */
  readonly billing?: BillingSettings;
  /** How far a long operation is (rows posted of a statement), for the CLI's progress bar on a terminal. */
  readonly progress?: (done: number, total: number) => void;
  /** Renders invoice and credit note PDFs elsewhere (acct serve: on its worker threads); absent, in this thread. */
  readonly renderPdf?: (data: InvoicePdfData) => Promise<Uint8Array>;
  /** The request being served, for the audit log of administrator changes. */
  readonly request?: RequestInfo;
  /** The caches the server keeps in memory (acct serve); the CLI keeps none. */
  readonly caches?: readonly ClearableCache[];
  /** Where a failure that must not fail the request is reported (the server's log); absent, standard error. */
  readonly logFailure?: (error: AppError) => void;
  /**
   * Start `task` once the answer has gone (acct serve): work that must not
   * show in the answer or in how long it takes. The server waits for it
   * before closing. Absent (the CLI), afterAnswer runs the task before answering.
   */
  readonly afterResponse?: (task: () => Promise<void>) => void;
}

/** A cache a server keeps in memory, which an administrator may empty (POST /admin/system/clear-cache). */
export interface ClearableCache {
  readonly name: string;
  readonly description: string;
  /** Empty it; how many entries it held. */
  clear(): number;
}

export interface Result<D = unknown, M = unknown> {
  readonly data: D;
  readonly meta?: M;
  /** A document instead of JSON (an invoice PDF): HTTP sends the bytes, the CLI writes a file. */
  readonly file?: FileResult;
}

export interface FileResult {
  readonly contentType: string;
  readonly filename: string;
  readonly bytes: Uint8Array;
}

/** What no file name may hold on some file system (and what a header's quoted name cannot): each becomes a dash. */
const unsafeInFilename = new Set('/\\:*?"<>|');

/** A document's name (its number: INV/2026/0007) as a file name, INV-2026-0007.pdf; the number itself is printed as it is. */
export function safeFilename(name: string, extension: string): string {
  const safe = [...name].map((c) => (unsafeInFilename.has(c) || c < ' ' || c === '\x7f' ? '-' : c)).join('');
  return `${safe}.${extension}`;
}

/** A PDF as an operation's file, or an e-mail's attachment, named after the document: every PDF is named here. */
export function pdfFile(name: string, bytes: Uint8Array): FileResult {
  return { contentType: 'application/pdf', filename: safeFilename(name, 'pdf'), bytes };
}

type Shape = z.ZodRawShape;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;
export type InputOf<P extends Shape, Q extends Shape, B extends Shape> = Out<P> & Out<Q> & Out<B>;

export interface OperationSpec<P extends Shape, Q extends Shape, B extends Shape, O extends z.ZodType> {
  /** `group.action`, for example `keys.create`; the CLI command unless `cli` says otherwise. */
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  readonly access: Access;
  readonly method: HttpMethod;
  /** Path under /v1 with `{param}` placeholders, for example `/api-keys/{id}/rotate`. */
  readonly path: string;
  /** Older paths the operation is also answered at, so that their clients keep working (listed as deprecated in OpenAPI). */
  readonly aliases?: readonly string[];
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** HTTP status on success (200 unless it creates something). */
  readonly status?: 200 | 201;
  /** The media type of a document the operation returns instead of JSON (application/pdf). */
  readonly produces?: string;
  /** Fields of `data` that are secrets shown once: never stored for an Idempotency-Key replay (replayed as null). */
  readonly secrets?: readonly string[];
  /** Body fields that are credentials (an OAuth authorisation code) under a name the request log's rule does not know: redacted there. */
  readonly bodySecrets?: readonly string[];
  /** The CLI command (group and action); custom: a hand-written command runs it, none is generated. */
  readonly cli?: { readonly group?: string; readonly action?: string; readonly custom?: true };
  /**
   * A body field that holds an uploaded file's text (a bank statement):
   * HTTP then also takes the file as the raw body (text/csv, OFX…) with the
   * other fields in the query, or as multipart/form-data, up to
   * maxBytes (else maxUploadBytes, 10 MiB); the CLI reads the flag as a
   * path. `filename` names the field that gets the file's name.
   */
  readonly upload?: { readonly field: string; readonly filename: string; readonly maxBytes?: number };
  /** The operation, by name, that shows what this one would do without doing it: the CLI's --dry-run runs it with the same input. */
  readonly dryRun?: string;
  /**
   * The body is a payload its sender signed (the payment provider's events):
   * HTTP hands it over unparsed, as text, in the body field `payload`, and
   * the request header `header` in the field `signature`, so that the
   * signature is checked over the very bytes that were sent.
   */
  readonly signed?: { readonly header: string };
  /**
   * The `data` of a success response (for a document, what the CLI prints
   * beside the file). Objects are declared strict, so a field the handler
   * returns and the schema lacks fails the contract check of the tests.
   */
  readonly output: O;
  /** The `meta` of a success response: `pageMetaSchema` for a paginated list. */
  readonly meta?: z.ZodType;
  /**
   * Calls to other services (an e-mail, HMRC; later the payment provider),
   * made before `run` and never inside a database transaction, so that a
   * slow service holds no lock on the books. When it throws, `run` does not happen.
   */
  readonly external?: (ctx: Ctx, input: InputOf<P, Q, B>) => Promise<void>;
  run(ctx: Ctx, input: InputOf<P, Q, B>): Promise<Result<z.input<O>>>;
}

/** An operation as the adapters see it; `D` is the type of its response's `data`. */
export interface Operation<D = unknown> {
  readonly name: string;
  readonly summary: string;
  readonly description: string | undefined;
  readonly access: Access;
  readonly method: HttpMethod;
  readonly path: string;
  readonly aliases: readonly string[];
  readonly status: 200 | 201;
  readonly produces: string | null;
  readonly secrets: readonly string[];
  readonly bodySecrets: readonly string[];
  readonly cli: { readonly group: string; readonly action: string | null; readonly custom: boolean };
  readonly upload: { readonly field: string; readonly filename: string; readonly maxBytes?: number } | null;
  readonly dryRun: string | null;
  readonly signed: { readonly header: string } | null;
  /** Path parameters, query and body schemas; the query and the body reject unknown fields. */
  readonly schemas: {
    readonly params: z.ZodObject;
    readonly query: z.ZodObject;
    readonly body: z.ZodObject | null;
    readonly output: z.ZodType<D>;
    readonly meta: z.ZodType | null;
  };
  /** The whole operation: `external`, then `local`. */
  run(ctx: Ctx, input: unknown): Promise<Result<D>>;
  /** Its calls to other services, to be made outside any transaction; null when it makes none. */
  readonly external: ((ctx: Ctx, input: unknown) => Promise<void>) | null;
  /** Its work on the books, once `external` has succeeded. */
  local(ctx: Ctx, input: unknown): Promise<Result<D>>;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- {} is zod's empty shape: an operation without params, query or body
export function defineOperation<P extends Shape = {}, Q extends Shape = {}, B extends Shape = {}, O extends z.ZodType = z.ZodType>(
  spec: OperationSpec<P, Q, B, O>,
): Operation<z.output<O>> {
  const [group = spec.name, action = null] = spec.name.split('.');
  const external = spec.external;
  let schemas: Operation<z.output<O>>['schemas'] | undefined;
  return {
    name: spec.name,
    summary: spec.summary,
    description: spec.description,
    access: spec.access,
    method: spec.method,
    path: spec.path,
    aliases: spec.aliases ?? [],
    status: spec.status ?? 200,
    produces: spec.produces ?? null,
    secrets: spec.secrets ?? [],
    bodySecrets: spec.bodySecrets ?? [],
    cli: { group: spec.cli?.group ?? group, action: spec.cli?.action ?? action, custom: spec.cli?.custom === true },
    upload: spec.upload ?? null,
    dryRun: spec.dryRun ?? null,
    signed: spec.signed ?? null,
    // Built on first use: a command runs one operation, and building every operation's objects is start-up time.
    get schemas() {
      schemas ??= {
        params: z.object(spec.params ?? {}),
        query: z.strictObject(spec.query ?? {}),
        body: spec.body ? z.strictObject(spec.body) : null,
        output: spec.output as z.ZodType<z.output<O>>,
        meta: spec.meta ?? null,
      };
      return schemas;
    },
    run: async (ctx, input) => {
      await external?.(ctx, input as InputOf<P, Q, B>);
      return spec.run(ctx, input as InputOf<P, Q, B>) as Promise<Result<z.output<O>>>;
    },
    external: external ? (ctx, input) => external(ctx, input as InputOf<P, Q, B>) : null,
    local: (ctx, input) => spec.run(ctx, input as InputOf<P, Q, B>) as Promise<Result<z.output<O>>>,
  };
}

/** The path parameter names of a route, in order. */
export const pathParams = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

/** Whether the principal holds every scope (may administer the organisation and read its request log). */
export const holdsAllScopes = (principal: Principal): boolean => scopes.every((s) => principal.scopes.includes(s));

/** Refuse a principal that may not call the operation (403 naming what is missing). */
export function checkAccess(access: Access, principal: Principal | null): void {
  if (access === 'public') return;
  if (!principal) throw new AppError('unauthorized', 'an API key is required');
  if (access === 'any-key') return;
  if (access === 'session') {
    if (principal.session) return;
    throw new AppError('insufficient_scope', 'this operation needs a user session (log in with POST /auth/login), not an API key');
  }
  if (access === 'admin') {
    if (principal.admin) return;
    throw new AppError('insufficient_scope', 'administrator endpoints need the session of a user with administrator status');
  }
  if (access === 'all-scopes') {
    if (holdsAllScopes(principal)) return;
    throw new AppError('insufficient_scope', 'this operation requires a key with all scopes');
  }
  if (!principal.scopes.includes(access)) {
    throw new AppError('insufficient_scope', `this API key lacks the required scope ${access}`);
  }
}

export function actorOf(ctx: Ctx): Actor {
  if (!ctx.principal) throw new AppError('unauthorized', 'an API key is required');
  return ctx.principal.actor;
}

/** The organisation books of the caller. */
export function orgOf(ctx: Ctx): OrgScope {
  if (ctx.books) return ctx.books;
  const p = ctx.principal;
  if (!p) throw new AppError('unauthorized', 'an API key is required');
  const handle = ctx.store.org(p.organisationId, p.mode);
  return { ...handle, id: p.organisationId, mode: p.mode };
}
