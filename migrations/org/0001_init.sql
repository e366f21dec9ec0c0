-- An organisation's books for one mode (live or test): profile and
-- settings, the chart of accounts, and closed financial periods.
CREATE TABLE organisation (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  business_type TEXT NOT NULL CHECK (business_type IN ('sole_trader', 'limited_company')),
  email TEXT,
  phone TEXT,
  website TEXT,
  vat_number TEXT,
  company_number TEXT,
  address_line1 TEXT,
  address_line2 TEXT,
  city TEXT,
  region TEXT,
  postal_code TEXT,
  country TEXT NOT NULL,
  currency TEXT NOT NULL,
  vat_scheme TEXT NOT NULL CHECK (vat_scheme IN ('not_registered', 'standard', 'flat_rate')),
  vat_flat_rate_bp INTEGER CHECK (vat_flat_rate_bp IS NULL OR vat_flat_rate_bp BETWEEN 1 AND 10000),
  fiscal_year_start TEXT NOT NULL,
  invoice_prefix TEXT NOT NULL,
  invoice_next_number INTEGER NOT NULL CHECK (invoice_next_number >= 1),
  quote_prefix TEXT NOT NULL,
  quote_next_number INTEGER NOT NULL CHECK (quote_next_number >= 1),
  default_payment_terms INTEGER NOT NULL,
  quote_validity_days INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  account_type TEXT NOT NULL CHECK (account_type IN ('asset', 'liability', 'equity', 'revenue', 'expense')),
  parent_id TEXT REFERENCES accounts (id),
  description TEXT,
  default_vat_rate INTEGER CHECK (default_vat_rate IS NULL OR default_vat_rate BETWEEN 0 AND 100),
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  is_system INTEGER NOT NULL DEFAULT 0 CHECK (is_system IN (0, 1)),
  is_control_account INTEGER NOT NULL DEFAULT 0 CHECK (is_control_account IN (0, 1)),
  control_type TEXT CHECK (control_type IS NULL OR control_type IN ('bank', 'receivables', 'payables', 'vat')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX accounts_by_parent ON accounts (parent_id);

CREATE TABLE closed_periods (
  id TEXT PRIMARY KEY,
  start_date TEXT NOT NULL UNIQUE,
  end_date TEXT NOT NULL,
  closed_at TEXT NOT NULL
);
