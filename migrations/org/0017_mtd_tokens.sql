-- The books' connection to HMRC's VAT (MTD) API: the OAuth 2.0 tokens that
-- the user granted (authorisation-code grant), one row per organisation
-- database. base_url is the HMRC environment that issued them (sandbox or
-- production): tokens of one are refused by the other. The access token
-- lasts 4 hours and is refreshed with the single-use refresh token, which
-- HMRC replaces at each refresh; after 18 months the user grants again.
CREATE TABLE mtd_tokens (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  base_url TEXT NOT NULL,
  access_token TEXT NOT NULL,
  refresh_token TEXT NOT NULL,
  scope TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  connected_at TEXT NOT NULL,
  refreshed_at TEXT
);
