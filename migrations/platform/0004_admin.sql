-- Administrators (issue 20): the audit log of their changes, suspended users,
-- impersonation sessions, closed organisations.

-- One row per administrator mutation. Append-only: the triggers below refuse
-- UPDATE and DELETE, so not even the engine can rewrite what was done.
-- The administrator is copied (id and address), not referenced: the log
-- outlives a deleted user.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  -- null when the local operator of the files acted through the CLI
  admin_id INTEGER,
  admin_email TEXT NOT NULL,
  action TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  -- JSON: the request (method, path, input with secrets removed) and what changed
  details TEXT NOT NULL,
  ip_address TEXT,
  user_agent TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX audit_log_by_entity ON audit_log (entity_type, entity_id, id);
CREATE INDEX audit_log_by_admin ON audit_log (admin_id, id);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be updated');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only: rows cannot be deleted');
END;

-- A suspended user cannot log in, and their sessions were revoked on suspension.
ALTER TABLE users ADD COLUMN suspended_at TEXT;

-- A session an administrator opened as the user (impersonation): the administrator's id (0: the local operator, on the CLI).
ALTER TABLE sessions ADD COLUMN impersonated_by INTEGER;

-- A closed organisation (DELETE /admin/orgs/{id}): its keys revoked, its users suspended, its books kept.
ALTER TABLE organisations ADD COLUMN closed_at TEXT;
