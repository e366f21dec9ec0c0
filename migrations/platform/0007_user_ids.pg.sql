-- A user id is never given again. PostgreSQL's identity (a sequence) never
-- goes back, so the table stays as it is; only the sequence is moved past
-- every user id the platform names (the audit log's deleted users and
-- administrators, impersonation sessions), for platforms copied from SQLite
-- files (acct migrate-store), whose sequence began after the highest id kept.
-- Organisations and bug reports have random text ids; audit_log rows are never deleted.
SELECT setval(pg_get_serial_sequence('users', 'id'), greatest(n, 1), n >= 1)
FROM (
  SELECT greatest(
    coalesce((SELECT max(id) FROM users), 0),
    coalesce(pg_sequence_last_value(pg_get_serial_sequence('users', 'id')::regclass), 0),
    coalesce((SELECT max(entity_id::bigint) FROM audit_log WHERE entity_type = 'user' AND entity_id ~ '^[1-9][0-9]{0,17}$'), 0),
    coalesce((SELECT max(admin_id) FROM audit_log), 0),
    coalesce((SELECT max(impersonated_by) FROM sessions), 0)
  ) AS n
) AS highest;
