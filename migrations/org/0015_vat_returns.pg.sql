-- PostgreSQL's own version of 0015_vat_returns.sql: vat_returns comes before vat_entries, which references it, and SQLite's randomblob, hex and strftime are replaced.
-- VAT returns from tax-coded entries, VAT periods from the organisation's
-- stagger, and filed returns that lock what they counted.

-- A filed return: its figures frozen (pence; boxes 6 to 9 rounded to whole
-- pounds, their exact pence kept beside), the settlement journal it posted,
-- and, once sent to HMRC, the submission receipt.
CREATE TABLE vat_returns (
  id TEXT PRIMARY KEY,
  period_start TEXT NOT NULL,
  period_end TEXT NOT NULL UNIQUE,
  due_date TEXT NOT NULL,
  scheme TEXT NOT NULL CHECK (scheme IN ('standard', 'flat_rate')),
  basis TEXT NOT NULL CHECK (basis IN ('accrual', 'cash')),
  flat_rate_bp BIGINT,
  box1 BIGINT NOT NULL,
  box2 BIGINT NOT NULL,
  box3 BIGINT NOT NULL,
  box4 BIGINT NOT NULL,
  box5 BIGINT NOT NULL CHECK (box5 >= 0),
  box6 BIGINT NOT NULL,
  box7 BIGINT NOT NULL,
  box8 BIGINT NOT NULL,
  box9 BIGINT NOT NULL,
  net_vat_direction TEXT NOT NULL CHECK (net_vat_direction IN ('payable', 'repayable', 'nil')),
  exact_box6 BIGINT NOT NULL,
  exact_box7 BIGINT NOT NULL,
  exact_box8 BIGINT NOT NULL,
  exact_box9 BIGINT NOT NULL,
  flat_rate_surplus BIGINT NOT NULL DEFAULT 0,
  transaction_id TEXT REFERENCES transactions (id),
  filed_at TEXT NOT NULL,
  filed_by TEXT NOT NULL,
  submitted_at TEXT,
  submission TEXT
);

-- A vat_entry is one line's (or one payment's share of one document's) VAT
-- facts: the net and the VAT of a sale or a purchase, written by posting in
-- the same database transaction as the ledger lines, and removed with its
-- transaction. Movements on the VAT accounts without such facts (paying
-- HMRC, transfers, corrections) have no entry, so they never reach a box.
-- vat_account_id is where the entry's VAT sits in the ledger (2200, 2201,
-- or the line's own account when the VAT is inside the cost), which is what
-- the settlement journal moves to the VAT liability account on filing.
CREATE TABLE vat_entries (
  id TEXT PRIMARY KEY,
  transaction_id TEXT NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
  line_id TEXT,
  document_id TEXT,
  date TEXT NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('sale', 'purchase')),
  -- accrual: counts on the invoice basis (a document's date); cash: on the
  -- cash basis (a payment's date); both: a manual line, on its date.
  basis TEXT NOT NULL CHECK (basis IN ('accrual', 'cash', 'both')),
  rate BIGINT CHECK (rate IS NULL OR rate BETWEEN 0 AND 100),
  net BIGINT NOT NULL,
  vat BIGINT NOT NULL,
  -- A purchase whose VAT is reclaimed in box 4 (the standard scheme, or a
  -- flat-rate capital purchase of £2,000 or more including VAT).
  reclaimable BIGINT NOT NULL CHECK (reclaimable IN (0, 1)),
  capital BIGINT NOT NULL DEFAULT 0 CHECK (capital IN (0, 1)),
  vat_account_id TEXT NOT NULL REFERENCES accounts (id),
  return_id TEXT REFERENCES vat_returns (id)
);
CREATE INDEX vat_entries_by_transaction ON vat_entries (transaction_id);
CREATE INDEX vat_entries_unfiled ON vat_entries (date) WHERE return_id IS NULL;
CREATE INDEX vat_entries_by_return ON vat_entries (return_id) WHERE return_id IS NOT NULL;
CREATE INDEX vat_entries_by_document ON vat_entries (document_id) WHERE document_id IS NOT NULL;

-- The stagger: quarterly (periods end in period_month and every third month
-- after), monthly, or annual (ending in period_month); the registration date
-- (the first period starts there; the flat rate's first-year discount runs
-- to the day before its anniversary); the accounting basis, which every
-- return not yet filed takes (so a change applies from a period's start).
ALTER TABLE organisation ADD COLUMN vat_registration_date TEXT;
ALTER TABLE organisation ADD COLUMN vat_stagger TEXT NOT NULL DEFAULT 'quarterly' CHECK (vat_stagger IN ('quarterly', 'monthly', 'annual'));
ALTER TABLE organisation ADD COLUMN vat_period_month BIGINT NOT NULL DEFAULT 3 CHECK (vat_period_month BETWEEN 1 AND 12);
ALTER TABLE organisation ADD COLUMN vat_accounting_basis TEXT NOT NULL DEFAULT 'accrual' CHECK (vat_accounting_basis IN ('accrual', 'cash'));

-- The two accounts filing needs, for organisations made before them (a new
-- organisation gets them from the chart fixture). Their ids are 'acc_' and
-- 26 random lower-case hex digits, as SQLite's lower(hex(randomblob(13)))
-- gives (without pgcrypto); their times are strftime's %Y-%m-%dT%H:%M:%fZ.
INSERT INTO accounts (id, code, name, account_type, parent_id, description, default_vat_rate, is_active, is_system, is_control_account, control_type, is_cost_of_sales, created_at, updated_at)
SELECT 'acc_' || substr(md5(random()::text || clock_timestamp()::text), 1, 26), '2202', 'VAT Liability', 'liability', NULL,
       'What is owed to (or due from) HMRC for filed VAT returns', NULL, 1, 1, 1, 'vat', 0,
       to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
WHERE EXISTS (SELECT 1 FROM organisation) AND NOT EXISTS (SELECT 1 FROM accounts WHERE code = '2202');
INSERT INTO accounts (id, code, name, account_type, parent_id, description, default_vat_rate, is_active, is_system, is_control_account, control_type, is_cost_of_sales, created_at, updated_at)
SELECT 'acc_' || substr(md5(random()::text || clock_timestamp()::text), 1, 26), '4300', 'Flat Rate Scheme Surplus', 'revenue', NULL,
       'VAT charged to customers less the flat-rate VAT due, recognised when a return is filed', NULL, 1, 1, 0, NULL, 0,
       to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
WHERE EXISTS (SELECT 1 FROM organisation) AND NOT EXISTS (SELECT 1 FROM accounts WHERE code = '4300');
