-- Webhook signing secrets are sealed at rest from now on (src/store/secret-box.ts,
-- with the data directory's secret.key): the first 10 characters, listed to
-- recognise a secret by, are kept beside it, so the list needs no key. The
-- secrets are still plain text here; the store seals them after migrating.
ALTER TABLE webhook_endpoints ADD COLUMN secret_prefix TEXT NOT NULL DEFAULT '';
UPDATE webhook_endpoints SET secret_prefix = substr(secret, 1, 10);
