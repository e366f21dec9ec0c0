/**
 * The one table from error code to HTTP status and CLI exit status.
 * Engine code throws `AppError(code, message, field?)` and never knows
 * about HTTP; each adapter reads this table.
 */
export const errorTable = {
  validation_error: { status: 400, exit: 2 },
  invalid_request: { status: 400, exit: 2 },
  invalid_type: { status: 400, exit: 2 },
  invalid_date: { status: 400, exit: 2 },
  invalid_id: { status: 400, exit: 2 },
  USER_INACTIVE: { status: 400, exit: 2 },
  unauthorized: { status: 401, exit: 6 },
  insufficient_scope: { status: 403, exit: 6 },
  forbidden: { status: 403, exit: 6 },
  account_suspended: { status: 403, exit: 6 },
  registration_disabled: { status: 403, exit: 6 },
  not_found: { status: 404, exit: 3 },
  conflict: { status: 409, exit: 4 },
  already_reconciled: { status: 409, exit: 4 },
  already_paid: { status: 409, exit: 4 },
  already_voided: { status: 409, exit: 4 },
  duplicate_entry: { status: 409, exit: 4 },
  duplicate_import: { status: 409, exit: 4 },
  already_filed: { status: 409, exit: 4 },
  already_submitted: { status: 409, exit: 4 },
  duplicate_submission: { status: 409, exit: 4 },
  SINGLETON_VIOLATION: { status: 409, exit: 4 },
  MIGRATION_SINGLETON_VIOLATION: { status: 409, exit: 4 },
  payload_too_large: { status: 413, exit: 2 },
  unprocessable_entity: { status: 422, exit: 5 },
  amount_too_large: { status: 422, exit: 5 },
  balance_mismatch: { status: 422, exit: 5 },
  unresolved_conflicts: { status: 422, exit: 5 },
  incomplete_ledger: { status: 422, exit: 5 },
  insufficient_profit: { status: 422, exit: 5 },
  CASH_VAT_UNSUPPORTED: { status: 422, exit: 5 },
  INVALID_TRANSITION: { status: 422, exit: 5 },
  PROVIDER_PARSE_FAILED: { status: 422, exit: 5 },
  migration_gate_failed: { status: 422, exit: 5 },
  vat_return_filed: { status: 422, exit: 5 },
  vat_period_not_ended: { status: 422, exit: 5 },
  vat_period_out_of_order: { status: 422, exit: 5 },
  hmrc_rejected: { status: 422, exit: 5 },
  hmrc_not_connected: { status: 422, exit: 5 },
  hmrc_not_configured: { status: 422, exit: 5 },
  no_obligation: { status: 422, exit: 5 },
  billing_not_configured: { status: 422, exit: 5 },
  billing_provider_rejected: { status: 422, exit: 5 },
  account_locked: { status: 423, exit: 6 },
  rate_limited: { status: 429, exit: 7 },
  internal_error: { status: 500, exit: 1 },
  service_unavailable: { status: 503, exit: 1 },
  server_busy: { status: 503, exit: 1 },
  hmrc_unavailable: { status: 503, exit: 1 },
  billing_provider_unavailable: { status: 503, exit: 1 },
} as const satisfies Record<string, { status: number; exit: number }>;

export type ErrorCode = keyof typeof errorTable;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  /** The whole seconds to wait before trying again (a 429 or 503), sent as Retry-After. */
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, field?: string, options?: { cause?: unknown; retryAfter?: number }) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.field = field;
    if (options?.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }

  get status(): number {
    return errorTable[this.code].status;
  }

  get exitCode(): number {
    return errorTable[this.code].exit;
  }

  /** The error member of the envelope; field appears only on validation errors (400), as the spec says. */
  toJSON(): { code: ErrorCode; message: string; field?: string } {
    return this.field === undefined || this.status !== 400
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, field: this.field };
  }
}

export const notFound = (what: string, id: string): AppError => new AppError('not_found', `${what} ${id} not found`);
