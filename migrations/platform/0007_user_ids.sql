-- A user id is never given again (AUTOINCREMENT): the audit log, impersonation
-- sessions (impersonated_by) and the books' created-by name users by id and
-- outlive a deleted user, so whoever registers next must not take the id of
-- the user deleted last. SQLite cannot add AUTOINCREMENT in place: users is
-- rebuilt with the same columns and indexes, and so are the three tables that
-- reference it (their rows first held by copies referencing users_new, which
-- the rename of users_new to users points back at users). The counter starts
-- past every user id the platform names: the users, the audit log's deleted
-- users and administrators, impersonation sessions. Organisations and bug
-- reports have random text ids; audit_log rows are never deleted.
CREATE TABLE users_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  updated_at TEXT NOT NULL,
  suspended_at TEXT
);
INSERT INTO users_new (id, email, full_name, organisation_id, password_hash, is_admin, email_verified, totp_secret, totp_enabled, totp_last_step, failed_logins, locked_until, last_login, created_at, updated_at, suspended_at)
SELECT id, email, full_name, organisation_id, password_hash, is_admin, email_verified, totp_secret, totp_enabled, totp_last_step, failed_logins, locked_until, last_login, created_at, updated_at, suspended_at
FROM users;

CREATE TABLE sessions_new (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users_new (id),
  access_hash TEXT NOT NULL UNIQUE,
  access_expires_at TEXT NOT NULL,
  refresh_hash TEXT NOT NULL UNIQUE,
  refresh_expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  impersonated_by INTEGER
);
INSERT INTO sessions_new (id, user_id, access_hash, access_expires_at, refresh_hash, refresh_expires_at, created_at, revoked_at, impersonated_by)
SELECT id, user_id, access_hash, access_expires_at, refresh_hash, refresh_expires_at, created_at, revoked_at, impersonated_by
FROM sessions;

CREATE TABLE login_challenges_new (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users_new (id),
  expires_at TEXT NOT NULL,
  used_at TEXT
);
INSERT INTO login_challenges_new (token_hash, user_id, expires_at, used_at)
SELECT token_hash, user_id, expires_at, used_at
FROM login_challenges;

CREATE TABLE user_tokens_new (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users_new (id),
  purpose TEXT NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
INSERT INTO user_tokens_new (token_hash, user_id, purpose, created_at, expires_at, used_at)
SELECT token_hash, user_id, purpose, created_at, expires_at, used_at
FROM user_tokens;

DROP TABLE sessions;
DROP TABLE login_challenges;
DROP TABLE user_tokens;
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;
ALTER TABLE sessions_new RENAME TO sessions;
ALTER TABLE login_challenges_new RENAME TO login_challenges;
ALTER TABLE user_tokens_new RENAME TO user_tokens;
CREATE INDEX users_by_organisation ON users (organisation_id);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX user_tokens_by_user ON user_tokens (user_id, purpose, created_at);

-- The INSERT above made the counter the highest id kept; a user deleted with a higher id is named elsewhere.
UPDATE sqlite_sequence
SET seq = max(
  seq,
  coalesce((SELECT max(CAST(entity_id AS INTEGER)) FROM audit_log WHERE entity_type = 'user' AND entity_id GLOB '[1-9]*' AND entity_id NOT GLOB '*[^0-9]*'), 0),
  coalesce((SELECT max(admin_id) FROM audit_log), 0),
  coalesce((SELECT max(impersonated_by) FROM sessions), 0)
)
WHERE name = 'users';
INSERT INTO sqlite_sequence (name, seq)
SELECT 'users', max(
  coalesce((SELECT max(CAST(entity_id AS INTEGER)) FROM audit_log WHERE entity_type = 'user' AND entity_id GLOB '[1-9]*' AND entity_id NOT GLOB '*[^0-9]*'), 0),
  coalesce((SELECT max(admin_id) FROM audit_log), 0),
  coalesce((SELECT max(impersonated_by) FROM sessions), 0)
)
WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'users');
