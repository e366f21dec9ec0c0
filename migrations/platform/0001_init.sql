-- The platform database: organisations, API keys by hash, platform settings.
CREATE TABLE organisations (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  trial_days INTEGER NOT NULL,
  trial_ends_at TEXT NOT NULL,
  early_access INTEGER NOT NULL CHECK (early_access IN (0, 1))
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  organisation_id TEXT NOT NULL REFERENCES organisations (id),
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  last_four TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  replaced_by TEXT REFERENCES api_keys (id)
);
CREATE INDEX api_keys_by_organisation ON api_keys (organisation_id, created_at);

CREATE TABLE platform_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
