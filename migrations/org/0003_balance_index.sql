-- Balances and reports sum posted lines by account up to a date: carry the
-- amount in the account index so they read the index alone.
DROP INDEX lines_by_account;
CREATE INDEX lines_by_account ON lines (account_id, posted, date, amount);
