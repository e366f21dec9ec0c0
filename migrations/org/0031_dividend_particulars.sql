-- A dividend's particulars as declared: the shareholder's name and address
-- and the company's name and number, printed on its voucher and covered by
-- the voucher's verification hash. Until now they were read from the
-- directors and the organisation as they stand, so renaming either rewrote
-- every voucher already issued and changed its hash. Dividends declared
-- before this column take the names as they stand now, the best there is.
ALTER TABLE dividends ADD COLUMN shareholder_name TEXT;
ALTER TABLE dividends ADD COLUMN shareholder_address TEXT;
ALTER TABLE dividends ADD COLUMN company_name TEXT;
ALTER TABLE dividends ADD COLUMN company_number TEXT;
UPDATE dividends SET
  shareholder_name = (SELECT full_name FROM directors WHERE directors.id = dividends.director_id),
  shareholder_address = (SELECT address FROM directors WHERE directors.id = dividends.director_id),
  company_name = (SELECT name FROM organisation),
  company_number = (SELECT company_number FROM organisation);
