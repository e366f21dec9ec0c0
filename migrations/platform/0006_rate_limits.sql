-- The rate limits' counts when several acct serve processes share one
-- PostgreSQL database (SharedRateLimiter in src/http/rate-limit.ts): a row
-- per bucket (an organisation's plan, its key creation), locked while a
-- request is counted, and a row per request of the last minute. A single
-- process, and the SQLite store, count in memory and leave these empty.
CREATE TABLE rate_limit_buckets (
  bucket TEXT PRIMARY KEY
);

CREATE TABLE rate_limit_hits (
  bucket TEXT NOT NULL REFERENCES rate_limit_buckets (bucket),
  at INTEGER NOT NULL
);
CREATE INDEX rate_limit_hits_by_bucket ON rate_limit_hits (bucket, at);
