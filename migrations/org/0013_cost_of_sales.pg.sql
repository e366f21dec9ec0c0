-- PostgreSQL's own version of 0013_cost_of_sales.sql: PostgreSQL has no GLOB; an anchored regular expression matches the same codes.
-- Cost of sales is an attribute of an account, no longer a range of codes
-- compared as text (which counted a user account '501' as cost of sales).
-- Existing organisations keep their gross profit: their expense accounts
-- coded exactly four digits from 5000 to 5099 carry it.
ALTER TABLE accounts ADD COLUMN is_cost_of_sales BIGINT NOT NULL DEFAULT 0 CHECK (is_cost_of_sales IN (0, 1));

-- GLOB '50[0-9][0-9]': the whole code, case-sensitive, exactly four characters.
UPDATE accounts SET is_cost_of_sales = 1 WHERE account_type = 'expense' AND code ~ '^50[0-9][0-9]$';
