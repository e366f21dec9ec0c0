-- The bank's own id of a statement row: an OFX file's FITID, unique in the
-- account and never changed, so a row carrying one is a duplicate of an
-- earlier row with the same id (and day and amount), never of a row with
-- another (bank-imports.ts). Null for CSV rows and rows imported before.
ALTER TABLE bank_import_rows ADD COLUMN bank_id TEXT;
