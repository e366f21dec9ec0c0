-- Leaving VAT registration is dated: vat_schemes may hold not_registered
-- from the first day the business is not registered (the day after its
-- final VAT period ends), and registering again a scheme from its own day.
-- The table is made again to widen its CHECK (SQLite cannot alter one).
CREATE TABLE vat_schemes_dated (
  from_date TEXT PRIMARY KEY,
  scheme TEXT NOT NULL CHECK (scheme IN ('standard', 'flat_rate', 'not_registered')),
  flat_rate_bp INTEGER
);
INSERT INTO vat_schemes_dated (from_date, scheme, flat_rate_bp) SELECT from_date, scheme, flat_rate_bp FROM vat_schemes;
DROP TABLE vat_schemes;
ALTER TABLE vat_schemes_dated RENAME TO vat_schemes;
