-- The triggers that keep account_days (0005), row_counts (0009) and
-- ledger_totals (0019) fire once a statement, over its transition table,
-- instead of once a row. Every update of a row inside one open transaction
-- leaves a version of it that PostgreSQL cannot prune before the commit, and
-- each later update walks the chain of them: a row trigger updating the one
-- row of row_counts and ledger_totals (and each account's day) once per
-- transaction made a journal import of n transactions cost n² (10,000 in
-- 8.6 s, 20,000 in 32 s). Posting writes a batch in statements of 200 rows,
-- so the rows are now updated once per statement. The trigger names stay
-- (SQLite's row triggers have the same ones, and test/store-postgres/schema.test.ts
-- compares them). A statement trigger cannot name columns of UPDATE OF nor
-- have a WHEN, so the functions filter themselves and write nothing when the
-- statement changed nothing they keep.

DROP TRIGGER row_counts_transactions_insert ON transactions;
DROP TRIGGER row_counts_transactions_delete ON transactions;
DROP FUNCTION row_counts_transactions_insert();
DROP FUNCTION row_counts_transactions_delete();

CREATE FUNCTION row_counts_transactions_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added BIGINT := (SELECT COUNT(*) FROM new_rows);
BEGIN
  IF added <> 0 THEN
    UPDATE row_counts SET n = n + added WHERE table_name = 'transactions';
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER row_counts_transactions_insert AFTER INSERT ON transactions
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_transactions_insert();

CREATE FUNCTION row_counts_transactions_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed BIGINT := (SELECT COUNT(*) FROM old_rows);
BEGIN
  IF removed <> 0 THEN
    UPDATE row_counts SET n = n - removed WHERE table_name = 'transactions';
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER row_counts_transactions_delete AFTER DELETE ON transactions
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION row_counts_transactions_delete();

DROP TRIGGER ledger_totals_transactions_insert ON transactions;
DROP TRIGGER ledger_totals_transactions_delete ON transactions;
DROP TRIGGER ledger_totals_transactions_update ON transactions;
DROP FUNCTION ledger_totals_transactions_insert();
DROP FUNCTION ledger_totals_transactions_delete();
DROP FUNCTION ledger_totals_transactions_update();

CREATE FUNCTION ledger_totals_transactions_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added BIGINT := (SELECT COALESCE(SUM(total_debit), 0) FROM new_rows);
BEGIN
  IF added <> 0 THEN
    UPDATE ledger_totals SET total_debit = total_debit + added WHERE id = 1;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER ledger_totals_transactions_insert AFTER INSERT ON transactions
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_totals_transactions_insert();

CREATE FUNCTION ledger_totals_transactions_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed BIGINT := (SELECT COALESCE(SUM(total_debit), 0) FROM old_rows);
BEGIN
  IF removed <> 0 THEN
    UPDATE ledger_totals SET total_debit = total_debit - removed WHERE id = 1;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER ledger_totals_transactions_delete AFTER DELETE ON transactions
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_totals_transactions_delete();

CREATE FUNCTION ledger_totals_transactions_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  change BIGINT := (SELECT COALESCE(SUM(total_debit), 0) FROM new_rows) - (SELECT COALESCE(SUM(total_debit), 0) FROM old_rows);
BEGIN
  IF change <> 0 THEN
    UPDATE ledger_totals SET total_debit = total_debit + change WHERE id = 1;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER ledger_totals_transactions_update AFTER UPDATE ON transactions
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_totals_transactions_update();

DROP TRIGGER account_days_after_insert ON lines;
DROP TRIGGER account_days_after_delete ON lines;
DROP TRIGGER account_days_after_update ON lines;
DROP FUNCTION account_days_after_insert();
DROP FUNCTION account_days_after_delete();
DROP FUNCTION account_days_after_update();

-- Each account's day once a statement, whatever the number of its lines: inserted posted lines add to it.
CREATE FUNCTION account_days_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_days (account_id, date, debit, credit)
  SELECT account_id, date, SUM(GREATEST(amount, 0)), SUM(GREATEST(-amount, 0))
  FROM new_rows WHERE posted = 1 GROUP BY account_id, date
  ON CONFLICT (account_id, date) DO UPDATE SET debit = account_days.debit + excluded.debit, credit = account_days.credit + excluded.credit;
  RETURN NULL;
END;
$$;
CREATE TRIGGER account_days_after_insert AFTER INSERT ON lines
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_days_after_insert();

-- Deleted posted lines take from their day, which stays (a row of zeros when all its lines left).
CREATE FUNCTION account_days_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account_days d SET debit = d.debit - o.debit, credit = d.credit - o.credit
  FROM (SELECT account_id, date, SUM(GREATEST(amount, 0)) AS debit, SUM(GREATEST(-amount, 0)) AS credit
        FROM old_rows WHERE posted = 1 GROUP BY account_id, date) o
  WHERE d.account_id = o.account_id AND d.date = o.date;
  RETURN NULL;
END;
$$;
CREATE TRIGGER account_days_after_delete AFTER DELETE ON lines
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION account_days_after_delete();

-- An update moves what its posted lines were out of their days and what they are into theirs: the two summed per day,
-- so that a day the statement left as it was (a line's description changed, say) is not written at all.
CREATE FUNCTION account_days_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_days (account_id, date, debit, credit)
  SELECT account_id, date, SUM(debit), SUM(credit)
  FROM (SELECT account_id, date, GREATEST(amount, 0) AS debit, GREATEST(-amount, 0) AS credit FROM new_rows WHERE posted = 1
        UNION ALL
        SELECT account_id, date, -GREATEST(amount, 0), -GREATEST(-amount, 0) FROM old_rows WHERE posted = 1) c
  GROUP BY account_id, date
  HAVING SUM(debit) <> 0 OR SUM(credit) <> 0
  ON CONFLICT (account_id, date) DO UPDATE SET debit = account_days.debit + excluded.debit, credit = account_days.credit + excluded.credit;
  RETURN NULL;
END;
$$;
CREATE TRIGGER account_days_after_update AFTER UPDATE ON lines
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_days_after_update();
