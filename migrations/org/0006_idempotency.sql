-- Idempotency-Key records: the first response to a key, replayed for 24
-- hours. Written in the same database transaction as the change it records.
CREATE TABLE idempotency_keys (
  key TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER NOT NULL,
  response TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX idempotency_keys_by_created ON idempotency_keys (created_at);
