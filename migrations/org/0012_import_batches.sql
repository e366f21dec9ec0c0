-- One row per journal import: what was read (source, content hash), what it
-- made (counts, total debit, date range), and by whom and when. Undoing an
-- import removes its transactions but keeps this row, marked undone, so the
-- history stays. The transactions point back with source_type 'import' and
-- source_id = id.
CREATE TABLE import_batches (
  id TEXT PRIMARY KEY,
  source TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  transaction_count INTEGER NOT NULL,
  line_count INTEGER NOT NULL,
  total_debit INTEGER NOT NULL,
  -- null when the journal held no entries
  first_date TEXT,
  last_date TEXT,
  created_by TEXT NOT NULL,
  created_by_name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  undone_at TEXT,
  undone_by TEXT,
  undone_by_name TEXT
);
CREATE INDEX import_batches_by_created ON import_batches (created_at, id);
-- A re-import looks for the same content among the batches still in the books.
CREATE INDEX import_batches_by_hash ON import_batches (content_hash) WHERE undone_at IS NULL;
