-- The general ledger reads an account's lines over a period in posting
-- order: carry the transaction and line number in the account index too, so
-- that it reads the index alone and only looks up each line's transaction.
-- Balances keep reading (account_id, posted, date, amount) from the front.
DROP INDEX lines_by_account;
CREATE INDEX lines_by_account ON lines (account_id, posted, date, amount, transaction_id, line_no);
