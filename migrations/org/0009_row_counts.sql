-- How many transactions there are, kept by triggers, so that the first
-- page of an unfiltered list tells its total without counting a million
-- rows on every request. Filtered lists still count what matches.
CREATE TABLE row_counts (
  table_name TEXT PRIMARY KEY,
  n INTEGER NOT NULL
);

INSERT INTO row_counts (table_name, n) SELECT 'transactions', COUNT(*) FROM transactions;

CREATE TRIGGER row_counts_transactions_insert AFTER INSERT ON transactions
BEGIN
  UPDATE row_counts SET n = n + 1 WHERE table_name = 'transactions';
END;

CREATE TRIGGER row_counts_transactions_delete AFTER DELETE ON transactions
BEGIN
  UPDATE row_counts SET n = n - 1 WHERE table_name = 'transactions';
END;
