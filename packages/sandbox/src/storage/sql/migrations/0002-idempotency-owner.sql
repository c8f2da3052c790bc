-- The process holding a running Idempotency-Key (see SqlDatabase.claims), so a key whose process
-- died is taken over at once instead of waiting for its lease to end.
ALTER TABLE sandbox_idempotency ADD COLUMN IF NOT EXISTS owner integer;
