-- The sum of every transaction's debits, drafts included, kept by triggers,
-- so that posting can refuse a transaction that would take the books past
-- the cap that keeps every balance and report total an exact integer in a
-- double (maxBooksDebit in src/engine/ledger/posting.ts) with a one-row read
-- instead of a sum over every transaction.
CREATE TABLE ledger_totals (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  total_debit INTEGER NOT NULL
);

INSERT INTO ledger_totals (id, total_debit) SELECT 1, COALESCE(SUM(total_debit), 0) FROM transactions;

CREATE TRIGGER ledger_totals_transactions_insert AFTER INSERT ON transactions
BEGIN
  UPDATE ledger_totals SET total_debit = total_debit + NEW.total_debit WHERE id = 1;
END;

CREATE TRIGGER ledger_totals_transactions_delete AFTER DELETE ON transactions
BEGIN
  UPDATE ledger_totals SET total_debit = total_debit - OLD.total_debit WHERE id = 1;
END;

CREATE TRIGGER ledger_totals_transactions_update AFTER UPDATE OF total_debit ON transactions
BEGIN
  UPDATE ledger_totals SET total_debit = total_debit - OLD.total_debit + NEW.total_debit WHERE id = 1;
END;
