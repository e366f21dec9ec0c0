-- Users and their sessions (issue 20). A user belongs to one organisation.
-- Tokens are opaque random strings stored as SHA-256 hashes, like API keys.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  -- stored lower-cased: one address, one user, whatever its capitals
  email TEXT NOT NULL UNIQUE,
  full_name TEXT NOT NULL,
  organisation_id TEXT NOT NULL REFERENCES organisations (id),
  -- scrypt$N$r$p$salt$hash (base64): the parameters travel with the hash
  password_hash TEXT NOT NULL,
  is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
  email_verified INTEGER NOT NULL DEFAULT 0 CHECK (email_verified IN (0, 1)),
  totp_secret TEXT,
  totp_enabled INTEGER NOT NULL DEFAULT 0 CHECK (totp_enabled IN (0, 1)),
  -- the last 30-second step whose code was accepted: no code is accepted twice
  totp_last_step INTEGER,
  failed_logins INTEGER NOT NULL DEFAULT 0,
  locked_until TEXT,
  last_login TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX users_by_organisation ON users (organisation_id);

-- One row per login: an access token (15 min) and a refresh token (7 days); refreshing replaces both hashes.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  access_hash TEXT NOT NULL UNIQUE,
  access_expires_at TEXT NOT NULL,
  refresh_hash TEXT NOT NULL UNIQUE,
  refresh_expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX sessions_by_user ON sessions (user_id);

-- The second step of a login with TOTP on: a single-use token of 5 minutes.
CREATE TABLE login_challenges (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  expires_at TEXT NOT NULL,
  used_at TEXT
);

-- Single-use tokens sent by e-mail: verifying the address, resetting the password. 1 hour.
CREATE TABLE user_tokens (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  purpose TEXT NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX user_tokens_by_user ON user_tokens (user_id, purpose, created_at);
