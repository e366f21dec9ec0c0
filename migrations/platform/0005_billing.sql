-- Subscription billing (issue 20): each organisation's plan and its subscription at the card-payment
-- provider (Stripe), as the provider's events leave it; the events received, once each; and the
-- checkout and portal sessions opened there.
ALTER TABLE organisations ADD COLUMN plan TEXT NOT NULL DEFAULT 'trial' CHECK (plan IN ('trial', 'sole_trader', 'limited_company'));
ALTER TABLE organisations ADD COLUMN stripe_customer_id TEXT;
ALTER TABLE organisations ADD COLUMN stripe_subscription_id TEXT;
ALTER TABLE organisations ADD COLUMN subscription_status TEXT CHECK (subscription_status IN ('active', 'trialing', 'past_due', 'canceled', 'unpaid'));
ALTER TABLE organisations ADD COLUMN current_period_end TEXT;
ALTER TABLE organisations ADD COLUMN cancel_at_period_end INTEGER NOT NULL DEFAULT 0 CHECK (cancel_at_period_end IN (0, 1));
-- the creation time (Unix seconds) of the provider event that last set the subscription: an older one delivered late changes nothing
ALTER TABLE organisations ADD COLUMN subscription_changed_at INTEGER;
CREATE UNIQUE INDEX organisations_by_stripe_customer ON organisations (stripe_customer_id) WHERE stripe_customer_id IS NOT NULL;

-- One row per provider event id: stored pending, then processed or failed; a redelivery of a stored id is not applied again.
CREATE TABLE provider_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  organisation_id TEXT REFERENCES organisations (id),
  status TEXT NOT NULL CHECK (status IN ('pending', 'processed', 'failed')),
  received_at TEXT NOT NULL,
  processed_at TEXT,
  error TEXT
);
CREATE INDEX provider_events_by_time ON provider_events (received_at);

-- Checkout and billing portal sessions opened at the provider for an organisation, newest last.
CREATE TABLE billing_sessions (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  organisation_id TEXT NOT NULL REFERENCES organisations (id),
  kind TEXT NOT NULL CHECK (kind IN ('checkout', 'portal')),
  plan TEXT CHECK (plan IN ('sole_trader', 'limited_company')),
  -- the trial days carried over to the subscription (checkout), else null
  trial_days INTEGER,
  url TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX billing_sessions_by_organisation ON billing_sessions (organisation_id, kind, seq);
