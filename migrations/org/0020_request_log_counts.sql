-- Refusals (403, 429) are logged as one entry per key, status, error code,
-- operation and minute, counting the requests it stands for; every other
-- request is one entry of count 1.
ALTER TABLE request_log ADD COLUMN count INTEGER NOT NULL DEFAULT 1;
