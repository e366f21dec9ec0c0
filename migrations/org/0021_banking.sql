-- Banking (issue 16): bank accounts over the ledger's bank-controlled
-- asset accounts, statement imports with their rows, and categorisation
-- rules. Ids of bank accounts, import rows and rules are integers, as the
-- product the spec describes publishes them; an import has a prefixed id
-- like the other documents.

CREATE TABLE bank_accounts (
  id INTEGER PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  bank_name TEXT,
  account_name TEXT NOT NULL,
  holder_name TEXT,
  sort_code TEXT,
  account_number TEXT,
  iban TEXT,
  is_primary INTEGER NOT NULL DEFAULT 0 CHECK (is_primary IN (0, 1)),
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
-- One bank account per ledger account, and one primary, among the active ones.
CREATE UNIQUE INDEX bank_accounts_one_per_ledger_account ON bank_accounts (account_id) WHERE is_active = 1;
CREATE UNIQUE INDEX bank_accounts_one_primary ON bank_accounts (is_primary) WHERE is_primary = 1 AND is_active = 1;

-- Every set of books already has the 1200 Bank Account: it becomes the primary bank account.
INSERT INTO bank_accounts (account_id, bank_name, account_name, is_primary, created_at, updated_at)
SELECT id, NULL, name, 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM accounts WHERE code = '1200' AND control_type = 'bank';

CREATE TABLE bank_imports (
  id TEXT PRIMARY KEY,
  bank_account_id INTEGER NOT NULL REFERENCES bank_accounts (id),
  filename TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'completed')),
  -- The statement as uploaded, kept while pending so that a remap can read it again; cleared on confirm.
  file_text TEXT,
  file_kind TEXT NOT NULL CHECK (file_kind IN ('csv', 'ofx')),
  schema_json TEXT NOT NULL,
  balance_proof_json TEXT,
  total_rows INTEGER NOT NULL,
  ignored_rows INTEGER NOT NULL,
  created_rows INTEGER NOT NULL DEFAULT 0,
  skipped_rows INTEGER NOT NULL DEFAULT 0,
  date_from TEXT,
  date_to TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE INDEX bank_imports_by_created ON bank_imports (created_at, id);

CREATE TABLE bank_import_rows (
  id INTEGER PRIMARY KEY,
  import_id TEXT NOT NULL REFERENCES bank_imports (id) ON DELETE CASCADE,
  row_index INTEGER NOT NULL,
  date TEXT,
  description TEXT,
  reference TEXT,
  amount INTEGER,
  balance INTEGER,
  -- valid, duplicate (of a row of an earlier completed import) or error while pending; created or skipped once confirmed.
  status TEXT NOT NULL CHECK (status IN ('valid', 'duplicate', 'error', 'created', 'skipped')),
  error TEXT,
  duplicate_of INTEGER REFERENCES bank_import_rows (id),
  transaction_id TEXT REFERENCES transactions (id),
  UNIQUE (import_id, row_index)
);
-- Duplicates are looked for by date, description and amount among completed rows of the same bank account.
CREATE INDEX bank_import_rows_by_line ON bank_import_rows (date, amount, description);
CREATE INDEX bank_import_rows_by_transaction ON bank_import_rows (transaction_id) WHERE transaction_id IS NOT NULL;

CREATE TABLE categorisation_rules (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT,
  field TEXT NOT NULL,
  operator TEXT NOT NULL,
  value TEXT NOT NULL,
  target_account_id TEXT NOT NULL REFERENCES accounts (id),
  priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN 0 AND 999),
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  is_seed INTEGER NOT NULL DEFAULT 0 CHECK (is_seed IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (field, operator, value)
);
