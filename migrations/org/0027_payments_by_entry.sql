-- The payments an entry holds: one, or several when one bank line pays
-- several invoices or bills (bank-matches.ts). Read when a payment is
-- removed, when a bank import is undone and when a statement's rows are
-- shown. line_id: in an entry of several, the control-account line that
-- is this payment, which its cash-basis VAT entries name too (cash-vat.ts);
-- null when the entry is the payment's alone.
ALTER TABLE payments ADD COLUMN line_id TEXT;
CREATE INDEX payments_by_transaction ON payments (transaction_id);
