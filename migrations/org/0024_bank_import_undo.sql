-- A completed bank import may be undone: its transactions leave the ledger,
-- and the import and its rows stay on record (their transaction ids
-- cleared), marked undone by these columns. The status column keeps its
-- check (pending, completed): SQLite cannot widen a CHECK in place, and
-- rebuilding bank_imports would cascade the delete to its rows.
ALTER TABLE bank_imports ADD COLUMN undone_at TEXT;
ALTER TABLE bank_imports ADD COLUMN undone_by TEXT;
