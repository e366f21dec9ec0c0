-- Sales and purchases: contacts, invoices and bills (one table, by kind),
-- quotes, their line items, and payments. Their ledger effects live in
-- transactions, written by posting; transaction_id links them.
CREATE TABLE contacts (
  id TEXT PRIMARY KEY,
  contact_type TEXT NOT NULL CHECK (contact_type IN ('customer', 'supplier', 'both')),
  name TEXT NOT NULL,
  company TEXT,
  email TEXT,
  -- lower-cased email: one contact per address, whatever its case
  email_key TEXT,
  phone TEXT,
  address_line1 TEXT,
  address_line2 TEXT,
  city TEXT,
  region TEXT,
  postal_code TEXT,
  country TEXT NOT NULL,
  vat_number TEXT,
  payment_terms INTEGER,
  currency TEXT NOT NULL,
  bank_name TEXT,
  bank_sort_code TEXT,
  bank_account TEXT,
  bank_iban TEXT,
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  notes TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX contacts_by_email ON contacts (email_key) WHERE email_key IS NOT NULL;
CREATE INDEX contacts_by_created ON contacts (created_at, id);
CREATE INDEX contacts_by_name ON contacts (name);

-- kind sales: an invoice to a customer (draft, sent, paid, overdue, void);
-- kind purchase: a bill from a supplier (draft, approved, paid, overdue, void).
CREATE TABLE invoices (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('sales', 'purchase')),
  number TEXT,
  status TEXT NOT NULL CHECK (status IN ('draft', 'sent', 'approved', 'paid', 'overdue', 'void')),
  contact_id TEXT NOT NULL REFERENCES contacts (id),
  currency TEXT NOT NULL,
  issue_date TEXT NOT NULL,
  due_date TEXT NOT NULL,
  paid_date TEXT,
  notes TEXT,
  reference TEXT,
  subtotal INTEGER NOT NULL,
  vat_amount INTEGER NOT NULL,
  total INTEGER NOT NULL,
  amount_paid INTEGER NOT NULL DEFAULT 0,
  transaction_id TEXT,
  quote_id TEXT,
  sent_at TEXT,
  voided_at TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX invoices_by_number ON invoices (number) WHERE kind = 'sales';
CREATE INDEX invoices_by_kind ON invoices (kind, created_at, id);
CREATE INDEX invoices_by_contact ON invoices (contact_id);
CREATE INDEX invoices_by_status_due ON invoices (status, due_date);

CREATE TABLE quotes (
  id TEXT PRIMARY KEY,
  number TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('draft', 'sent', 'accepted', 'rejected', 'expired', 'converted')),
  contact_id TEXT NOT NULL REFERENCES contacts (id),
  currency TEXT NOT NULL,
  issue_date TEXT NOT NULL,
  valid_until TEXT NOT NULL,
  notes TEXT,
  terms TEXT,
  reference TEXT,
  subtotal INTEGER NOT NULL,
  vat_amount INTEGER NOT NULL,
  total INTEGER NOT NULL,
  converted_invoice_id TEXT REFERENCES invoices (id),
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX quotes_by_created ON quotes (created_at, id);
CREATE INDEX quotes_by_contact ON quotes (contact_id);

-- The line items of invoices, bills and quotes (document_id is inv_, bill_ or quo_).
CREATE TABLE document_items (
  id TEXT PRIMARY KEY,
  document_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  description TEXT NOT NULL,
  quantity REAL NOT NULL,
  unit_price INTEGER NOT NULL,
  vat_rate_name TEXT NOT NULL CHECK (vat_rate_name IN ('standard', 'reduced', 'zero', 'exempt')),
  vat_rate INTEGER NOT NULL,
  net INTEGER NOT NULL,
  vat_amount INTEGER NOT NULL,
  line_total INTEGER NOT NULL,
  account_id TEXT REFERENCES accounts (id)
);
CREATE INDEX document_items_by_document ON document_items (document_id, position);

-- Payments received against invoices and made against bills.
CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  invoice_id TEXT NOT NULL REFERENCES invoices (id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  date TEXT NOT NULL,
  method TEXT NOT NULL CHECK (method IN ('bank_transfer', 'card', 'cash', 'other')),
  reference TEXT,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  transaction_id TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX payments_by_invoice ON payments (invoice_id, date);
