-- The flat rates a flat-rate return applied, as filed: a JSON array of
-- {from, to, percent, turnover, vat} (pence; the vat parts sum to box 1,
-- the turnovers to exact box 6), the first-year rate one point lower and
-- the full rate each with their days. Null under the standard scheme, and
-- for flat-rate returns filed before this column: their parts were not
-- kept, and the entries they stamped do not always give them back (a
-- document counted less what cash returns took of it is not stamped).
ALTER TABLE vat_returns ADD COLUMN flat_rates TEXT;
