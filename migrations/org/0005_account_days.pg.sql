-- PostgreSQL's own version of 0005_account_days.sql: its triggers are plpgsql functions, and SQLite's MAX(a, b) is GREATEST.
-- Posted totals per account and day, kept in step with the lines by
-- triggers, so that balances and reports over a million transactions read
-- a few thousand rows instead of every line. debit and credit are both
-- positive sums; a day whose lines all leave keeps a row of zeros.
CREATE TABLE account_days (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  date TEXT NOT NULL,
  debit BIGINT NOT NULL,
  credit BIGINT NOT NULL,
  PRIMARY KEY (account_id, date)
);
CREATE INDEX account_days_by_date ON account_days (date, account_id);

INSERT INTO account_days (account_id, date, debit, credit)
SELECT account_id, date,
       SUM(CASE WHEN amount > 0 THEN amount ELSE 0 END),
       SUM(CASE WHEN amount < 0 THEN -amount ELSE 0 END)
FROM lines WHERE posted = 1 GROUP BY account_id, date;

-- The functions name no schema: account_days resolves through search_path when they run.
CREATE FUNCTION account_days_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO account_days (account_id, date, debit, credit)
  VALUES (NEW.account_id, NEW.date, GREATEST(NEW.amount, 0), GREATEST(-NEW.amount, 0))
  ON CONFLICT (account_id, date) DO UPDATE SET debit = account_days.debit + excluded.debit, credit = account_days.credit + excluded.credit;
  RETURN NULL;
END;
$$;
CREATE TRIGGER account_days_after_insert AFTER INSERT ON lines
FOR EACH ROW WHEN (NEW.posted = 1) EXECUTE FUNCTION account_days_after_insert();

CREATE FUNCTION account_days_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account_days SET debit = debit - GREATEST(OLD.amount, 0), credit = credit - GREATEST(-OLD.amount, 0)
  WHERE account_id = OLD.account_id AND date = OLD.date;
  RETURN NULL;
END;
$$;
CREATE TRIGGER account_days_after_delete AFTER DELETE ON lines
FOR EACH ROW WHEN (OLD.posted = 1) EXECUTE FUNCTION account_days_after_delete();

CREATE FUNCTION account_days_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE account_days SET debit = debit - GREATEST(OLD.amount, 0), credit = credit - GREATEST(-OLD.amount, 0)
  WHERE OLD.posted = 1 AND account_id = OLD.account_id AND date = OLD.date;
  INSERT INTO account_days (account_id, date, debit, credit)
  SELECT NEW.account_id, NEW.date, GREATEST(NEW.amount, 0), GREATEST(-NEW.amount, 0) WHERE NEW.posted = 1
  ON CONFLICT (account_id, date) DO UPDATE SET debit = account_days.debit + excluded.debit, credit = account_days.credit + excluded.credit;
  RETURN NULL;
END;
$$;
CREATE TRIGGER account_days_after_update AFTER UPDATE OF posted, amount, date, account_id ON lines
FOR EACH ROW EXECUTE FUNCTION account_days_after_update();
