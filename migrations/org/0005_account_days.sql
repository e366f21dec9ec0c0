-- Posted totals per account and day, kept in step with the lines by
-- triggers, so that balances and reports over a million transactions read
-- a few thousand rows instead of every line. debit and credit are both
-- positive sums; a day whose lines all leave keeps a row of zeros.
CREATE TABLE account_days (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  date TEXT NOT NULL,
  debit INTEGER NOT NULL,
  credit INTEGER NOT NULL,
  PRIMARY KEY (account_id, date)
);
CREATE INDEX account_days_by_date ON account_days (date, account_id);

INSERT INTO account_days (account_id, date, debit, credit)
SELECT account_id, date,
       SUM(CASE WHEN amount > 0 THEN amount ELSE 0 END),
       SUM(CASE WHEN amount < 0 THEN -amount ELSE 0 END)
FROM lines WHERE posted = 1 GROUP BY account_id, date;

CREATE TRIGGER account_days_after_insert AFTER INSERT ON lines WHEN NEW.posted = 1
BEGIN
  INSERT INTO account_days (account_id, date, debit, credit)
  VALUES (NEW.account_id, NEW.date, MAX(NEW.amount, 0), MAX(-NEW.amount, 0))
  ON CONFLICT (account_id, date) DO UPDATE SET debit = debit + excluded.debit, credit = credit + excluded.credit;
END;

CREATE TRIGGER account_days_after_delete AFTER DELETE ON lines WHEN OLD.posted = 1
BEGIN
  UPDATE account_days SET debit = debit - MAX(OLD.amount, 0), credit = credit - MAX(-OLD.amount, 0)
  WHERE account_id = OLD.account_id AND date = OLD.date;
END;

CREATE TRIGGER account_days_after_update AFTER UPDATE OF posted, amount, date, account_id ON lines
BEGIN
  UPDATE account_days SET debit = debit - MAX(OLD.amount, 0), credit = credit - MAX(-OLD.amount, 0)
  WHERE OLD.posted = 1 AND account_id = OLD.account_id AND date = OLD.date;
  INSERT INTO account_days (account_id, date, debit, credit)
  SELECT NEW.account_id, NEW.date, MAX(NEW.amount, 0), MAX(-NEW.amount, 0) WHERE NEW.posted = 1
  ON CONFLICT (account_id, date) DO UPDATE SET debit = debit + excluded.debit, credit = credit + excluded.credit;
END;
