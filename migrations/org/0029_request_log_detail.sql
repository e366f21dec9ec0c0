-- What the request log's detail shows beside the status and error
-- (request-log-writer.ts): the caller's address and user agent, the request
-- headers with their secrets redacted, and the request and response bodies
-- with secret fields redacted, each cut to 16,384 characters (the flag says
-- so). Null for entries logged before.
ALTER TABLE request_log ADD COLUMN ip_address TEXT;
ALTER TABLE request_log ADD COLUMN user_agent TEXT;
ALTER TABLE request_log ADD COLUMN request_headers TEXT;
ALTER TABLE request_log ADD COLUMN request_body TEXT;
ALTER TABLE request_log ADD COLUMN request_body_truncated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE request_log ADD COLUMN response_body TEXT;
ALTER TABLE request_log ADD COLUMN response_body_truncated INTEGER NOT NULL DEFAULT 0;
