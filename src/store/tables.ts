import type { Generated, Selectable } from 'kysely';
/** Row types of the two kinds of database, as kysely sees them. Booleans are stored as 0/1. */

export interface OrganisationsTable {
  id: string;
  created_at: string;
  trial_days: number;
  trial_ends_at: string;
  early_access: number;
  /** Billing (platform migration 0005): the plan paid for, trial until a subscription starts. */
  plan: Generated<BillingPlanId>;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  subscription_status: SubscriptionStatus | null;
  current_period_end: string | null;
  cancel_at_period_end: Generated<number>;
  /** The creation time (Unix seconds) of the provider event that last set the subscription. */
  subscription_changed_at: number | null;
  closed_at: string | null;
}

/** An organisation's platform row as read. */
export type OrganisationsRow = Selectable<OrganisationsTable>;

export type BillingPlanId = 'trial' | 'sole_trader' | 'limited_company';
export type SubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'canceled' | 'unpaid';

/** A card-payment provider event received (platform migration 0005), once per event id. */
export interface ProviderEventsTable {
  id: string;
  type: string;
  organisation_id: string | null;
  status: 'pending' | 'processed' | 'failed';
  received_at: string;
  processed_at: string | null;
  error: string | null;
}

/** A checkout or billing portal session opened at the provider. */
export interface BillingSessionsTable {
  seq: Generated<number>;
  id: string;
  organisation_id: string;
  kind: 'checkout' | 'portal';
  plan: 'sole_trader' | 'limited_company' | null;
  trial_days: number | null;
  url: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  organisation_id: string;
  mode: 'live' | 'test';
  name: string;
  prefix: string;
  last_four: string;
  key_hash: string;
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  replaced_by: string | null;
}

export interface PlatformSettingsTable {
  key: string;
  value: string;
}

export type BugSeverity = 'critical' | 'high' | 'medium' | 'low';
export type BugStatus = 'open' | 'acknowledged' | 'investigating' | 'resolved' | 'wont_fix' | 'duplicate';

/** A bug report (platform migration 0003); browser_info and api_context are JSON text. */
export interface BugReportsTable {
  id: string;
  organisation_id: string;
  mode: 'live' | 'test';
  title: string;
  description: string;
  severity: BugSeverity;
  status: BugStatus;
  page_url: string | null;
  browser_info: string | null;
  api_context: string | null;
  admin_notes: string | null;
  reported_by: string;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
}

/** A person who logs in (platform migration 0002); one organisation each. */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  full_name: string;
  organisation_id: string;
  password_hash: string;
  is_admin: number;
  email_verified: number;
  totp_secret: string | null;
  totp_enabled: number;
  totp_last_step: number | null;
  failed_logins: number;
  locked_until: string | null;
  last_login: string | null;
  created_at: string;
  updated_at: string;
  suspended_at: string | null;
}

/** One login: its access and refresh tokens by hash. */
export interface SessionsTable {
  id: string;
  user_id: number;
  access_hash: string;
  access_expires_at: string;
  refresh_hash: string;
  refresh_expires_at: string;
  created_at: string;
  revoked_at: string | null;
  impersonated_by: number | null;
}

/** One administrator mutation; the table refuses UPDATE and DELETE. */
export interface AuditLogTable {
  id: Generated<number>;
  admin_id: number | null;
  admin_email: string;
  action: string;
  entity_type: string;
  entity_id: string;
  details: string;
  ip_address: string | null;
  user_agent: string | null;
  created_at: string;
}

/** The second step of a login with TOTP on. */
export interface LoginChallengesTable {
  token_hash: string;
  user_id: number;
  expires_at: string;
  used_at: string | null;
}

/** A single-use token sent by e-mail (verification, password reset), by hash. */
export interface UserTokensTable {
  token_hash: string;
  user_id: number;
  purpose: 'verify_email' | 'reset_password';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface PlatformDb {
  organisations: OrganisationsTable;
  api_keys: ApiKeysTable;
  platform_settings: PlatformSettingsTable;
  bug_reports: BugReportsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_challenges: LoginChallengesTable;
  user_tokens: UserTokensTable;
  provider_events: ProviderEventsTable;
  billing_sessions: BillingSessionsTable;
  audit_log: AuditLogTable;
  rate_limit_buckets: RateLimitBucketsTable;
  rate_limit_hits: RateLimitHitsTable;
}

/** A rate limit shared by the processes of one PostgreSQL database (platform migration 0006). */
export interface RateLimitBucketsTable {
  bucket: string;
}

export interface RateLimitHitsTable {
  bucket: string;
  /** When the request was counted, ms since the epoch. */
  at: number;
}

export interface OrganisationTable {
  id: string;
  name: string;
  business_type: 'sole_trader' | 'limited_company';
  email: string | null;
  phone: string | null;
  website: string | null;
  vat_number: string | null;
  company_number: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string;
  currency: string;
  vat_scheme: 'not_registered' | 'standard' | 'flat_rate';
  vat_flat_rate_bp: number | null;
  fiscal_year_start: string;
  invoice_prefix: string;
  invoice_next_number: number;
  quote_prefix: string;
  quote_next_number: number;
  credit_note_prefix: string;
  credit_note_next_number: number;
  /** The next dividend voucher number (migration 0022): DIV-0001 onward. */
  dividend_next_number: number;
  default_payment_terms: number;
  quote_validity_days: number;
  vat_registration_date: string | null;
  vat_stagger: VatStagger;
  vat_period_month: number;
  vat_accounting_basis: VatBasis;
  created_at: string;
  updated_at: string;
}

export type VatStagger = 'quarterly' | 'monthly' | 'annual';
export type VatBasis = 'accrual' | 'cash';

/** One line's, or one payment's share of one document's, VAT facts (migration 0015). */
export interface VatEntriesTable {
  id: string;
  transaction_id: string;
  line_id: string | null;
  document_id: string | null;
  date: string;
  direction: 'sale' | 'purchase';
  basis: VatBasis | 'both';
  rate: number | null;
  net: number;
  vat: number;
  reclaimable: number;
  capital: number;
  vat_account_id: string;
  return_id: string | null;
}

/** A filed VAT return, its figures frozen (pence). */
export interface VatReturnsTable {
  id: string;
  period_start: string;
  period_end: string;
  due_date: string;
  scheme: 'standard' | 'flat_rate';
  basis: VatBasis;
  flat_rate_bp: number | null;
  box1: number;
  box2: number;
  box3: number;
  box4: number;
  box5: number;
  box6: number;
  box7: number;
  box8: number;
  box9: number;
  net_vat_direction: 'payable' | 'repayable' | 'nil';
  exact_box6: number;
  exact_box7: number;
  exact_box8: number;
  exact_box9: number;
  flat_rate_surplus: number;
  /** Flat rate: the rates applied, JSON of FlatRatePart[] (migration 0030); null under the standard scheme or filed before 0030. */
  flat_rates: string | null;
  transaction_id: string | null;
  filed_at: string;
  filed_by: string;
  submitted_at: string | null;
  submission: string | null;
}

/** The OAuth 2.0 tokens of the books' connection to HMRC's VAT (MTD) API (migration 0017): one row. */
export interface MtdTokensTable {
  id: number;
  base_url: string;
  access_token: string;
  refresh_token: string;
  scope: string;
  expires_at: string;
  connected_at: string;
  refreshed_at: string | null;
}

export interface AccountsTable {
  id: string;
  code: string;
  name: string;
  account_type: 'asset' | 'liability' | 'equity' | 'revenue' | 'expense';
  parent_id: string | null;
  description: string | null;
  default_vat_rate: number | null;
  is_active: number;
  is_system: number;
  is_control_account: number;
  control_type: 'bank' | 'receivables' | 'payables' | 'vat' | null;
  /** Counted in cost of sales, so in gross profit (migration 0013); only expense accounts carry it. */
  is_cost_of_sales: number;
  created_at: string;
  updated_at: string;
}

export interface ClosedPeriodsTable {
  id: string;
  start_date: string;
  end_date: string;
  closed_at: string;
}

export interface TransactionsTable {
  id: string;
  date: string;
  description: string;
  reference: string | null;
  source_type: string;
  source_id: string | null;
  status: 'draft' | 'posted';
  is_reconciled: number;
  reconciled_at: string | null;
  created_by: string;
  created_by_name: string;
  total_debit: number;
  account_codes: string;
  created_at: string;
  updated_at: string;
}

export interface LinesTable {
  id: string;
  transaction_id: string;
  line_no: number;
  account_id: string;
  contact_id: string | null;
  amount: number;
  description: string | null;
  vat_rate: number | null;
  vat_treatment: 'none' | 'inclusive' | 'exclusive' | null;
  vat_amount: number | null;
  date: string;
  posted: number;
}

/** Posted debit and credit totals per account and day, kept by triggers on lines (migration 0005). */
/** Row counts kept by triggers (migration 0009): today only 'transactions'. */
export interface RowCountsTable {
  table_name: string;
  n: number;
}

/** The sum of every transaction's total_debit, drafts included, in its one row (id 1), kept by triggers (migration 0019). */
export interface LedgerTotalsTable {
  id: number;
  total_debit: number;
}

export interface AccountDaysTable {
  account_id: string;
  date: string;
  debit: number;
  credit: number;
}

/** One row per journal import (migration 0012); its transactions carry source_type 'import' and source_id = id. */
export interface ImportBatchesTable {
  id: string;
  /** The file name, or - for standard input. */
  source: string;
  /** sha256 hex of the content with line endings normalised. */
  content_hash: string;
  transaction_count: number;
  line_count: number;
  /** Sum of the positive line amounts, in pence. */
  total_debit: number;
  first_date: string | null;
  last_date: string | null;
  created_by: string;
  created_by_name: string;
  created_at: string;
  undone_at: string | null;
  undone_by: string | null;
  undone_by_name: string | null;
}

export interface IdempotencyKeysTable {
  key: string;
  fingerprint: string;
  method: string;
  path: string;
  status: number;
  response: string;
  created_at: string;
  /** The request holding the key while it runs (status 0, response ''); null once its response is stored. */
  reserved_by: string | null;
}

export interface RequestLogTable {
  id: string;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  key_id: string | null;
  key_prefix: string | null;
  idempotency_key: string | null;
  error: string | null;
  created_at: string;
  /** The requests this entry stands for: 1, or more for a summary of refusals (migration 0020). */
  count: number;
  /** Migration 0029; null in entries logged before. Headers and bodies are JSON text, redacted and cut (request-log-redact.ts). */
  ip_address: string | null;
  user_agent: string | null;
  request_headers: string | null;
  request_body: string | null;
  request_body_truncated: number;
  response_body: string | null;
  response_body_truncated: number;
}

export interface OutboxTable {
  id: string;
  event: string;
  payload: string;
  created_at: string;
  fanned_out: Generated<number>;
}

export interface WebhookEndpointsTable {
  id: string;
  url: string;
  description: string | null;
  events: string;
  /** Sealed (enc1:…, see secret-box.ts), or plain text written before sealing. */
  secret: string;
  /** The first 10 characters of the secret, to recognise it by. */
  secret_prefix: string;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  event: string;
  body: string;
  event_at: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  response_status: number | null;
  latency_ms: number | null;
  error: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface ContactsTable {
  id: string;
  contact_type: 'customer' | 'supplier' | 'both';
  name: string;
  company: string | null;
  email: string | null;
  email_key: string | null;
  phone: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string;
  vat_number: string | null;
  /** Companies House number, which contact imports match on (migration 0023). */
  company_number: string | null;
  payment_terms: number | null;
  currency: string;
  bank_name: string | null;
  bank_sort_code: string | null;
  bank_account: string | null;
  bank_iban: string | null;
  is_active: number;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export type InvoiceKind = 'sales' | 'purchase';
export type InvoiceStatus = 'draft' | 'sent' | 'approved' | 'paid' | 'overdue' | 'void';

/** Invoices (kind sales) and bills (kind purchase). */
export interface InvoicesTable {
  id: string;
  kind: InvoiceKind;
  number: string | null;
  status: InvoiceStatus;
  contact_id: string;
  currency: string;
  issue_date: string;
  due_date: string;
  paid_date: string | null;
  notes: string | null;
  reference: string | null;
  subtotal: number;
  vat_amount: number;
  total: number;
  amount_paid: number;
  /** Credit note credit allocated to this document. */
  amount_credited: number;
  transaction_id: string | null;
  quote_id: string | null;
  sent_at: string | null;
  voided_at: string | null;
  /** A sales invoice's seller and customer as printed, JSON, kept when it was issued (migration 0035); null on drafts, bills and older invoices. */
  issued_particulars: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export type QuoteStatus = 'draft' | 'sent' | 'accepted' | 'rejected' | 'expired' | 'converted';

export interface QuotesTable {
  id: string;
  number: string;
  status: QuoteStatus;
  contact_id: string;
  currency: string;
  issue_date: string;
  valid_until: string;
  notes: string | null;
  terms: string | null;
  reference: string | null;
  subtotal: number;
  vat_amount: number;
  total: number;
  converted_invoice_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export type VatRateName = 'standard' | 'reduced' | 'zero' | 'exempt';

export interface DocumentItemsTable {
  id: string;
  document_id: string;
  position: number;
  description: string;
  quantity: number;
  unit_price: number;
  /** null: no rate (a sale of a business not registered for VAT). */
  vat_rate_name: VatRateName | null;
  vat_rate: number;
  net: number;
  vat_amount: number;
  line_total: number;
  account_id: string | null;
  /** On a credit note's line: the invoice or bill line it credits. */
  source_item_id: string | null;
}

export type PaymentMethod = 'bank_transfer' | 'card' | 'cash' | 'other';

export interface PaymentsTable {
  id: string;
  invoice_id: string;
  amount: number;
  date: string;
  method: PaymentMethod;
  reference: string | null;
  account_id: string;
  transaction_id: string;
  /** In an entry holding several payments (one bank line paying several documents), the control-account line that is this one; else null (migration 0027). */
  line_id: string | null;
  created_by: string;
  created_at: string;
}

export type CreditNoteStatus = 'issued' | 'void';

/** Credit notes against invoices (kind sales) and bills (kind purchase). */
export interface CreditNotesTable {
  id: string;
  kind: InvoiceKind;
  number: string | null;
  status: CreditNoteStatus;
  invoice_id: string;
  contact_id: string;
  currency: string;
  date: string;
  reason: string | null;
  reference: string | null;
  subtotal: number;
  vat_amount: number;
  total: number;
  allocated: number;
  refunded: number;
  transaction_id: string | null;
  voided_at: string | null;
  /** A sales credit note's seller and customer as printed, JSON, kept when it was issued (migration 0035); null on supplier credit notes and older ones. */
  issued_particulars: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface CreditAllocationsTable {
  id: string;
  credit_note_id: string;
  invoice_id: string;
  amount: number;
  date: string;
  created_by: string;
  created_at: string;
}

export interface RefundsTable {
  id: string;
  credit_note_id: string;
  amount: number;
  date: string;
  method: PaymentMethod;
  reference: string | null;
  account_id: string;
  transaction_id: string;
  created_by: string;
  created_at: string;
}

/** A bank account (migration 0021): a ledger account under bank control, with the details printed on documents. */
export interface BankAccountsTable {
  id: Generated<number>;
  account_id: string;
  bank_name: string | null;
  account_name: string;
  holder_name: string | null;
  sort_code: string | null;
  account_number: string | null;
  iban: string | null;
  is_primary: number;
  is_active: number;
  created_at: string;
  updated_at: string;
}

/** A bank statement import (migration 0021): pending until confirmed, then completed with its file cleared. */
export interface BankImportsTable {
  id: string;
  bank_account_id: number;
  filename: string | null;
  status: 'pending' | 'completed';
  file_text: string | null;
  file_kind: 'csv' | 'ofx';
  /** The statement's layout, JSON. */
  schema_json: string;
  /** The balance proof, JSON; null when the statement has no balances. */
  balance_proof_json: string | null;
  /** Data rows in the file: valid, duplicate and rejected rows (blank lines are ignored_rows). */
  total_rows: number;
  ignored_rows: number;
  created_rows: number;
  skipped_rows: number;
  date_from: string | null;
  date_to: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** When a completed import was undone (migration 0024): its transactions removed, its rows kept with their transaction ids cleared. */
  undone_at: string | null;
  undone_by: string | null;
}

export type BankImportRowStatus = 'valid' | 'duplicate' | 'error' | 'created' | 'skipped';

export interface BankImportRowsTable {
  id: Generated<number>;
  import_id: string;
  row_index: number;
  date: string | null;
  description: string | null;
  reference: string | null;
  /** The bank's own id of the transaction, an OFX file's FITID (migration 0028). */
  bank_id: string | null;
  amount: number | null;
  balance: number | null;
  status: BankImportRowStatus;
  error: string | null;
  duplicate_of: number | null;
  transaction_id: string | null;
  /** What the row was matched to (migration 0025): an invoice or bill it paid, or an entry already on the bank account. */
  matched_kind: 'invoice' | 'bill' | 'transaction' | null;
  matched_id: string | null;
}

/** A categorisation rule of this organisation (migration 0021); global rules ship in fixtures/categorisation. */
export interface CategorisationRulesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  field: string;
  operator: string;
  value: string;
  target_account_id: string;
  priority: number;
  is_active: number;
  is_seed: number;
  created_at: string;
  updated_at: string;
}

/** A director or shareholder (migration 0022); connected persons point at the director they are connected to. */
export interface DirectorsTable {
  id: string;
  full_name: string;
  email: string | null;
  address: string | null;
  is_shareholder: number;
  shares_held: number;
  share_class: string;
  appointed_date: string | null;
  resigned_date: string | null;
  is_active: number;
  connected_to_director_id: string | null;
  relationship: 'spouse' | 'child' | 'parent' | 'associate' | null;
  created_at: string;
  updated_at: string;
}

export type LoanType =
  'loan_to_director' | 'loan_from_director' | 'repayment_to_company' | 'repayment_to_director' | 'dividend_offset' | 'salary_offset' | 'write_off';

/** A movement on a director's loan account (migration 0022): positive, company to director. */
export interface DlaTransactionsTable {
  id: string;
  director_id: string;
  date: string;
  description: string;
  amount: number;
  loan_type: LoanType;
  notes: string | null;
  transaction_id: string | null;
  dividend_id: string | null;
  created_at: string;
}

export interface BoardMinutesTable {
  id: string;
  resolution_ref: string;
  date: string;
  financial_year_end: string;
  /** Director ids, JSON. */
  attendees_json: string;
  chair_id: string;
  retained_profit: number;
  total_dividend: number;
  notes: string | null;
  status: 'approved';
  /** The company's name and number at the meeting, printed on the minutes (migration 0036). */
  company_name: string;
  company_number: string | null;
  created_at: string;
}

export interface DividendsTable {
  id: string;
  voucher_number: string;
  director_id: string;
  board_minutes_id: string;
  amount: number;
  share_class: string;
  shares_held: number;
  /** The particulars as declared, printed on the voucher (migration 0031; earlier dividends took them as they stood then). */
  shareholder_name: string;
  shareholder_address: string | null;
  company_name: string;
  company_number: string | null;
  date_declared: string;
  date_paid: string | null;
  payment_method: 'bank_transfer' | 'dla_offset' | 'cheque';
  status: 'declared' | 'paid' | 'void';
  financial_year_end: string;
  declare_transaction_id: string | null;
  pay_transaction_id: string | null;
  notes: string | null;
  voided_at: string | null;
  void_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface DlaSnapshotsTable {
  id: string;
  director_id: string;
  period_end_date: string;
  balance: number;
  /** With connected persons (migration 0032). */
  aggregated_balance: number;
  s455_exposure: number;
  bik_benefit: number;
  deadline: string;
  deadline_status: string;
  created_at: string;
}

export type DataImportKind = 'contacts' | 'balances' | 'invoices' | 'bills';
export type DataImportStatus = 'processing' | 'pending' | 'completed' | 'voided';

/** One row per contact, opening balance, invoice or bill import (migration 0023). */
export interface DataImportsTable {
  id: string;
  kind: DataImportKind;
  filename: string | null;
  status: DataImportStatus;
  file_text: string;
  options_json: string;
  total_rows: number;
  created_count: number;
  merged_count: number;
  skipped_count: number;
  error_count: number;
  engine_version: string;
  transaction_id: string | null;
  reversal_transaction_id: string | null;
  result_json: string | null;
  created_by: string;
  created_at: string;
  completed_at: string | null;
  voided_at: string | null;
}

/** What a confirmed import did with each of its rows. */
export interface DataImportRowsTable {
  import_id: string;
  row_index: number;
  outcome: 'created' | 'merged' | 'skipped' | 'rejected';
  record_id: string | null;
  reason: string | null;
  fingerprint: string | null;
}

export type MigrationProvider = 'freeagent' | 'xero' | 'quickbooks' | 'other';

export interface MigrationsTable {
  id: string;
  provider: MigrationProvider;
  state: 'open' | 'completed' | 'abandoned';
  cutover_date: string;
  contacts_import_id: string | null;
  balances_import_id: string | null;
  invoices_import_id: string | null;
  bills_import_id: string | null;
  deferred_json: string | null;
  reconciliation_json: string | null;
  warnings_json: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  abandoned_at: string | null;
}

/** The VAT scheme in force from a day (migration 0026): empty until the scheme first changes. */
export interface VatSchemesTable {
  from_date: string;
  /** not_registered: registration ended the day before (migration 0033). */
  scheme: 'standard' | 'flat_rate' | 'not_registered';
  flat_rate_bp: number | null;
}

export interface OrgDb {
  vat_schemes: VatSchemesTable;
  organisation: OrganisationTable;
  vat_entries: VatEntriesTable;
  vat_returns: VatReturnsTable;
  mtd_tokens: MtdTokensTable;
  accounts: AccountsTable;
  closed_periods: ClosedPeriodsTable;
  transactions: TransactionsTable;
  lines: LinesTable;
  outbox: OutboxTable;
  account_days: AccountDaysTable;
  row_counts: RowCountsTable;
  ledger_totals: LedgerTotalsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  request_log: RequestLogTable;
  contacts: ContactsTable;
  invoices: InvoicesTable;
  quotes: QuotesTable;
  document_items: DocumentItemsTable;
  payments: PaymentsTable;
  credit_notes: CreditNotesTable;
  credit_allocations: CreditAllocationsTable;
  refunds: RefundsTable;
  import_batches: ImportBatchesTable;
  bank_accounts: BankAccountsTable;
  bank_imports: BankImportsTable;
  bank_import_rows: BankImportRowsTable;
  categorisation_rules: CategorisationRulesTable;
  directors: DirectorsTable;
  dla_transactions: DlaTransactionsTable;
  board_minutes: BoardMinutesTable;
  dividends: DividendsTable;
  dla_snapshots: DlaSnapshotsTable;
  data_imports: DataImportsTable;
  data_import_rows: DataImportRowsTable;
  migrations: MigrationsTable;
}
