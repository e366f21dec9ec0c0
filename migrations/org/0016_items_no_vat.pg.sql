-- PostgreSQL's own version of 0016_items_no_vat.sql: PostgreSQL relaxes NOT NULL in place, so document_items is altered rather than rebuilt.
-- A sales line of a business not registered for VAT has no VAT rate: it is
-- stored with vat_rate_name NULL (and vat_rate 0) rather than as 'zero',
-- which would claim a zero-rated supply. The rate names stay checked; the
-- check is written out again as SQLite's rebuilt table has it (the old one
-- already let NULL through, as a CHECK that is unknown passes).
ALTER TABLE document_items ALTER COLUMN vat_rate_name DROP NOT NULL;
ALTER TABLE document_items DROP CONSTRAINT document_items_vat_rate_name_check;
ALTER TABLE document_items ADD CONSTRAINT document_items_vat_rate_name_check
  CHECK (vat_rate_name IS NULL OR vat_rate_name IN ('standard', 'reduced', 'zero', 'exempt'));
