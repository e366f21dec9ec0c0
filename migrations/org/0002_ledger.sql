-- The ledger: transactions and their lines, written only by posting, and
-- the outbox of events written in the same database transaction.
CREATE TABLE transactions (
  id TEXT PRIMARY KEY,
  date TEXT NOT NULL,
  description TEXT NOT NULL,
  reference TEXT,
  source_type TEXT NOT NULL,
  source_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('draft', 'posted')),
  is_reconciled INTEGER NOT NULL DEFAULT 0 CHECK (is_reconciled IN (0, 1)),
  reconciled_at TEXT,
  created_by TEXT NOT NULL,
  created_by_name TEXT NOT NULL,
  total_debit INTEGER NOT NULL,
  account_codes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX transactions_by_date ON transactions (date, id);
CREATE INDEX transactions_by_created ON transactions (created_at, id);
CREATE INDEX transactions_by_source ON transactions (source_type, source_id);

-- date and posted repeat the transaction's, kept in step by posting, so
-- that balances and reports read lines alone.
CREATE TABLE lines (
  id TEXT PRIMARY KEY,
  transaction_id TEXT NOT NULL REFERENCES transactions (id) ON DELETE CASCADE,
  line_no INTEGER NOT NULL,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  contact_id TEXT,
  amount INTEGER NOT NULL,
  description TEXT,
  vat_rate INTEGER CHECK (vat_rate IS NULL OR vat_rate BETWEEN 0 AND 100),
  vat_treatment TEXT CHECK (vat_treatment IS NULL OR vat_treatment IN ('none', 'inclusive', 'exclusive')),
  vat_amount INTEGER,
  date TEXT NOT NULL,
  posted INTEGER NOT NULL CHECK (posted IN (0, 1))
);
CREATE INDEX lines_by_transaction ON lines (transaction_id, line_no);
CREATE INDEX lines_by_account ON lines (account_id, posted, date);
CREATE INDEX lines_by_contact ON lines (contact_id) WHERE contact_id IS NOT NULL;

CREATE TABLE outbox (
  id TEXT PRIMARY KEY,
  event TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX outbox_by_created ON outbox (created_at, id);
