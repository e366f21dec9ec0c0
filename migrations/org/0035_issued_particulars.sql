-- What a sales invoice or credit note prints of its seller (name, address,
-- e-mail, telephone, VAT and company numbers) and of its customer (name,
-- company, address, VAT number), as JSON, kept when it is issued: sent or
-- marked sent, brought forward by a migration, a credit note made. Until now
-- the PDF read the organisation and the contact as they stand, so a copy of
-- an invoice printed after either changed showed a VAT number or an address
-- it was never issued with. Documents issued before this column have none and
-- print the particulars as they stand, the best there is; bills have none.
ALTER TABLE invoices ADD COLUMN issued_particulars TEXT;
ALTER TABLE credit_notes ADD COLUMN issued_particulars TEXT;
