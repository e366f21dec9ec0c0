-- An Idempotency-Key is reserved before its request runs, so that calls to
-- other services (an invoice e-mail) can be made outside the write
-- transaction while later requests with the key wait. reserved_by names the
-- request holding the key (status 0 and an empty response until it
-- finishes); NULL once its response is stored.
ALTER TABLE idempotency_keys ADD COLUMN reserved_by TEXT;
