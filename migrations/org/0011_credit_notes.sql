-- Credit notes against issued invoices (kind sales, cn_) and bills (kind
-- purchase, scn_), what they settle, and refunds of the credit left over.
-- A credit note's ledger entry reverses the lines it credits (VAT
-- included) against the control account; allocations post nothing (both
-- documents sit on the same control account and contact); a refund moves
-- money between the bank and the control account.
CREATE TABLE credit_notes (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('sales', 'purchase')),
  number TEXT,
  status TEXT NOT NULL CHECK (status IN ('issued', 'void')),
  invoice_id TEXT NOT NULL REFERENCES invoices (id),
  contact_id TEXT NOT NULL REFERENCES contacts (id),
  currency TEXT NOT NULL,
  date TEXT NOT NULL,
  reason TEXT,
  reference TEXT,
  subtotal INTEGER NOT NULL,
  vat_amount INTEGER NOT NULL,
  total INTEGER NOT NULL CHECK (total > 0),
  allocated INTEGER NOT NULL DEFAULT 0,
  refunded INTEGER NOT NULL DEFAULT 0,
  transaction_id TEXT,
  voided_at TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK (allocated >= 0 AND refunded >= 0 AND allocated + refunded <= total)
);
CREATE UNIQUE INDEX credit_notes_by_number ON credit_notes (number) WHERE kind = 'sales';
CREATE INDEX credit_notes_by_kind ON credit_notes (kind, created_at, id);
CREATE INDEX credit_notes_by_invoice ON credit_notes (invoice_id);
CREATE INDEX credit_notes_by_contact ON credit_notes (contact_id, date);

-- The invoice line a credit note line credits (null on invoice, bill and quote lines).
ALTER TABLE document_items ADD COLUMN source_item_id TEXT;
CREATE INDEX document_items_by_source ON document_items (source_item_id) WHERE source_item_id IS NOT NULL;

-- Credit applied to an invoice (or bill) of the same contact.
CREATE TABLE credit_allocations (
  id TEXT PRIMARY KEY,
  credit_note_id TEXT NOT NULL REFERENCES credit_notes (id),
  invoice_id TEXT NOT NULL REFERENCES invoices (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  date TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX credit_allocations_by_note ON credit_allocations (credit_note_id, date);
CREATE INDEX credit_allocations_by_invoice ON credit_allocations (invoice_id, date);

-- Credit paid back: to a customer out of a bank account, or by a supplier into one.
CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  credit_note_id TEXT NOT NULL REFERENCES credit_notes (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  date TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('bank_transfer', 'card', 'cash', 'other')),
  reference TEXT,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  transaction_id TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX refunds_by_note ON refunds (credit_note_id, date);

ALTER TABLE invoices ADD COLUMN amount_credited INTEGER NOT NULL DEFAULT 0;

ALTER TABLE organisation ADD COLUMN credit_note_prefix TEXT NOT NULL DEFAULT 'CN-';
ALTER TABLE organisation ADD COLUMN credit_note_next_number INTEGER NOT NULL DEFAULT 1 CHECK (credit_note_next_number >= 1);
