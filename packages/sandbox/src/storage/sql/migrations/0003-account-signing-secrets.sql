-- Each account's Standard Webhooks secret for signing its deliveries, made at its first start
-- and kept: a receiver configured with it goes on accepting deliveries after a restart, and
-- sandbox processes sharing the database sign with the same one.
CREATE TABLE IF NOT EXISTS sandbox_signing_secrets (
  account_id text PRIMARY KEY,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
