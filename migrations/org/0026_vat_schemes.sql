-- The VAT scheme in force from a day: a change between the standard and
-- flat rate schemes (or of the flat rate) takes effect from the start of a
-- VAT period, so the returns before it keep the scheme they were made
-- under. Empty until the first change: the organisation's own scheme is
-- then in force throughout. The first change also records the scheme it
-- replaces, from 1900-01-01.
CREATE TABLE vat_schemes (
  from_date TEXT PRIMARY KEY,
  scheme TEXT NOT NULL CHECK (scheme IN ('standard', 'flat_rate')),
  flat_rate_bp INTEGER
);
