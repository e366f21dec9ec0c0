-- A sales line of a business not registered for VAT has no VAT rate: it is
-- stored with vat_rate_name NULL (and vat_rate 0) rather than as 'zero',
-- which would claim a zero-rated supply. SQLite cannot relax NOT NULL in
-- place, so document_items is rebuilt with the same columns and indexes
-- (no table references it).
CREATE TABLE document_items_new (
  id TEXT PRIMARY KEY,
  document_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  description TEXT NOT NULL,
  quantity REAL NOT NULL,
  unit_price INTEGER NOT NULL,
  vat_rate_name TEXT CHECK (vat_rate_name IS NULL OR vat_rate_name IN ('standard', 'reduced', 'zero', 'exempt')),
  vat_rate INTEGER NOT NULL,
  net INTEGER NOT NULL,
  vat_amount INTEGER NOT NULL,
  line_total INTEGER NOT NULL,
  account_id TEXT REFERENCES accounts (id),
  source_item_id TEXT
);
INSERT INTO document_items_new (id, document_id, position, description, quantity, unit_price, vat_rate_name, vat_rate, net, vat_amount, line_total, account_id, source_item_id)
SELECT id, document_id, position, description, quantity, unit_price, vat_rate_name, vat_rate, net, vat_amount, line_total, account_id, source_item_id
FROM document_items;
DROP TABLE document_items;
ALTER TABLE document_items_new RENAME TO document_items;
CREATE INDEX document_items_by_document ON document_items (document_id, position);
CREATE INDEX document_items_by_source ON document_items (source_item_id) WHERE source_item_id IS NOT NULL;
