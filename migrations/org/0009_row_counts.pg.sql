-- PostgreSQL's own version of 0009_row_counts.sql: its triggers are plpgsql functions.
-- How many transactions there are, kept by triggers, so that the first
-- page of an unfiltered list tells its total without counting a million
-- rows on every request. Filtered lists still count what matches.
CREATE TABLE row_counts (
  table_name TEXT PRIMARY KEY,
  n BIGINT NOT NULL
);

INSERT INTO row_counts (table_name, n) SELECT 'transactions', COUNT(*) FROM transactions;

-- The functions name no schema: row_counts resolves through search_path when they run.
CREATE FUNCTION row_counts_transactions_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = n + 1 WHERE table_name = 'transactions';
  RETURN NULL;
END;
$$;
CREATE TRIGGER row_counts_transactions_insert AFTER INSERT ON transactions
FOR EACH ROW EXECUTE FUNCTION row_counts_transactions_insert();

CREATE FUNCTION row_counts_transactions_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE row_counts SET n = n - 1 WHERE table_name = 'transactions';
  RETURN NULL;
END;
$$;
CREATE TRIGGER row_counts_transactions_delete AFTER DELETE ON transactions
FOR EACH ROW EXECUTE FUNCTION row_counts_transactions_delete();
