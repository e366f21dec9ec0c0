-- Webhook endpoints of these books, and the deliveries the sender makes
-- from the outbox: one per event and subscribed endpoint, retried on a
-- schedule, kept across restarts.
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  description TEXT,
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  event TEXT NOT NULL,
  body TEXT NOT NULL,
  event_at TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  last_attempt_at TEXT,
  response_status INTEGER,
  latency_ms INTEGER,
  error TEXT,
  created_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);

-- Whether the sender has made this event's deliveries yet.
ALTER TABLE outbox ADD COLUMN fanned_out INTEGER NOT NULL DEFAULT 0;
CREATE INDEX outbox_waiting ON outbox (fanned_out, created_at, id);
