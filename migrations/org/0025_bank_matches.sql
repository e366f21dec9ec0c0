-- A bank statement row may be matched to what the books already hold of its
-- money: an open invoice or bill (the row is recorded as its payment, and
-- transaction_id is the payment's entry) or an entry already on the bank
-- account (transaction_id is that entry; the import made none). matched_id
-- is the invoice's, bill's or entry's id. The status column keeps its check:
-- a row matched to an entry stays 'created' here and shows as matched.
ALTER TABLE bank_import_rows ADD COLUMN matched_kind TEXT CHECK (matched_kind IN ('invoice', 'bill', 'transaction'));
ALTER TABLE bank_import_rows ADD COLUMN matched_id TEXT;
