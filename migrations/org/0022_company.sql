-- The company features (issue 17): directors and shareholders, their loan
-- account movements (each with the journal posting made), board minutes,
-- dividends and year-end DLA snapshots. Money in pence.

CREATE TABLE directors (
  id TEXT PRIMARY KEY,
  full_name TEXT NOT NULL,
  email TEXT,
  address TEXT,
  is_shareholder INTEGER NOT NULL DEFAULT 0 CHECK (is_shareholder IN (0, 1)),
  shares_held INTEGER NOT NULL DEFAULT 0 CHECK (shares_held >= 0),
  share_class TEXT NOT NULL DEFAULT 'Ordinary',
  appointed_date TEXT,
  resigned_date TEXT,
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  connected_to_director_id TEXT REFERENCES directors (id),
  relationship TEXT CHECK (relationship IN ('spouse', 'child', 'parent', 'associate')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((connected_to_director_id IS NULL) = (relationship IS NULL))
);

CREATE TABLE dla_transactions (
  id TEXT PRIMARY KEY,
  director_id TEXT NOT NULL REFERENCES directors (id),
  date TEXT NOT NULL,
  description TEXT NOT NULL,
  -- Positive: company to director (the director owes more); negative: director to company.
  amount INTEGER NOT NULL CHECK (amount != 0),
  loan_type TEXT NOT NULL CHECK (loan_type IN ('loan_to_director', 'loan_from_director', 'repayment_to_company', 'repayment_to_director', 'dividend_offset', 'salary_offset', 'write_off')),
  notes TEXT,
  transaction_id TEXT REFERENCES transactions (id),
  dividend_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX dla_transactions_by_director ON dla_transactions (director_id, date, id);

CREATE TABLE board_minutes (
  id TEXT PRIMARY KEY,
  resolution_ref TEXT NOT NULL UNIQUE,
  date TEXT NOT NULL,
  financial_year_end TEXT NOT NULL,
  attendees_json TEXT NOT NULL,
  chair_id TEXT NOT NULL REFERENCES directors (id),
  retained_profit INTEGER NOT NULL,
  total_dividend INTEGER NOT NULL CHECK (total_dividend >= 0),
  notes TEXT,
  status TEXT NOT NULL DEFAULT 'approved' CHECK (status IN ('approved')),
  created_at TEXT NOT NULL
);

CREATE TABLE dividends (
  id TEXT PRIMARY KEY,
  voucher_number TEXT NOT NULL UNIQUE,
  director_id TEXT NOT NULL REFERENCES directors (id),
  board_minutes_id TEXT NOT NULL REFERENCES board_minutes (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  share_class TEXT NOT NULL,
  shares_held INTEGER NOT NULL,
  date_declared TEXT NOT NULL,
  date_paid TEXT,
  payment_method TEXT NOT NULL CHECK (payment_method IN ('bank_transfer', 'dla_offset', 'cheque')),
  status TEXT NOT NULL CHECK (status IN ('declared', 'paid', 'void')),
  financial_year_end TEXT NOT NULL,
  declare_transaction_id TEXT REFERENCES transactions (id),
  pay_transaction_id TEXT REFERENCES transactions (id),
  notes TEXT,
  voided_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX dividends_by_year ON dividends (financial_year_end, director_id);

CREATE TABLE dla_snapshots (
  id TEXT PRIMARY KEY,
  director_id TEXT NOT NULL REFERENCES directors (id),
  period_end_date TEXT NOT NULL,
  balance INTEGER NOT NULL,
  s455_exposure INTEGER NOT NULL,
  bik_benefit INTEGER NOT NULL,
  deadline TEXT NOT NULL,
  deadline_status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (director_id, period_end_date)
);

-- Voucher numbers (DIV-0001 onward) are counted here, never reused, even after a void.
ALTER TABLE organisation ADD COLUMN dividend_next_number INTEGER NOT NULL DEFAULT 1;
