-- Imports and migration (issue 18): contact imports, opening balances and
-- outstanding invoice and bill imports share one record (an import id
-- dimp_…, as journal imports have); what confirm did with each row; the
-- migration that gathers the four imports; and the Companies House number
-- that contact imports match on.

ALTER TABLE contacts ADD COLUMN company_number TEXT;

CREATE TABLE data_imports (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('contacts', 'balances', 'invoices', 'bills')),
  filename TEXT,
  status TEXT NOT NULL CHECK (status IN ('processing', 'pending', 'completed', 'voided')),
  -- The file as uploaded: every preview is read from it again, so it reflects the books as they are.
  file_text TEXT NOT NULL,
  -- The choices made since upload (mode, cutover date, mappings, resolutions), as JSON.
  options_json TEXT NOT NULL,
  total_rows INTEGER NOT NULL,
  created_count INTEGER NOT NULL DEFAULT 0,
  merged_count INTEGER NOT NULL DEFAULT 0,
  skipped_count INTEGER NOT NULL DEFAULT 0,
  error_count INTEGER NOT NULL DEFAULT 0,
  engine_version TEXT NOT NULL,
  -- Opening balances: the migration journal, and its reversal once voided.
  transaction_id TEXT,
  reversal_transaction_id TEXT,
  -- What confirm returned, as JSON.
  result_json TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  completed_at TEXT,
  voided_at TEXT
);
CREATE INDEX data_imports_by_kind ON data_imports (kind, created_at, id);
-- One active opening balance, and one active import of outstanding invoices and of bills, per set of books.
CREATE UNIQUE INDEX uniq_active_ob_per_org ON data_imports (kind) WHERE status = 'completed' AND kind IN ('balances', 'invoices', 'bills');

CREATE TABLE data_import_rows (
  import_id TEXT NOT NULL REFERENCES data_imports (id),
  row_index INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('created', 'merged', 'skipped', 'rejected')),
  -- The contact, invoice or bill the row made or merged into.
  record_id TEXT,
  reason TEXT,
  -- Contact rows: a hash of the row's identity fields, so that the same row imported again goes where it went before.
  fingerprint TEXT,
  PRIMARY KEY (import_id, row_index)
);
CREATE INDEX data_import_rows_by_record ON data_import_rows (record_id);
CREATE INDEX data_import_rows_by_fingerprint ON data_import_rows (fingerprint) WHERE fingerprint IS NOT NULL;

CREATE TABLE migrations (
  id TEXT PRIMARY KEY,
  provider TEXT NOT NULL CHECK (provider IN ('freeagent', 'xero', 'quickbooks', 'other')),
  -- open: its status is worked out from its imports; completed and abandoned are final.
  state TEXT NOT NULL CHECK (state IN ('open', 'completed', 'abandoned')),
  cutover_date TEXT NOT NULL,
  contacts_import_id TEXT REFERENCES data_imports (id),
  balances_import_id TEXT REFERENCES data_imports (id),
  invoices_import_id TEXT REFERENCES data_imports (id),
  bills_import_id TEXT REFERENCES data_imports (id),
  -- Files of a provider upload held until the opening balance is confirmed, as JSON.
  deferred_json TEXT,
  reconciliation_json TEXT,
  warnings_json TEXT NOT NULL DEFAULT '[]',
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT,
  abandoned_at TEXT
);
CREATE INDEX migrations_by_created ON migrations (created_at, id);
CREATE UNIQUE INDEX uniq_open_migration ON migrations (state) WHERE state = 'open';
