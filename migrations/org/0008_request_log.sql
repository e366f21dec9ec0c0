-- The API request log of these books: one row per authenticated request,
-- error bodies only, kept 30 days.
CREATE TABLE request_log (
  id TEXT PRIMARY KEY,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER NOT NULL,
  latency_ms INTEGER NOT NULL,
  key_id TEXT,
  key_prefix TEXT,
  idempotency_key TEXT,
  error TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX request_log_by_created ON request_log (created_at, id);
