-- Nothing changes in SQLite: its row triggers update a row in place.
-- PostgreSQL's 0034_statement_triggers.pg.sql makes the triggers of
-- account_days (0005), row_counts (0009) and ledger_totals (0019) fire once
-- a statement instead of once a row.
SELECT 1;
