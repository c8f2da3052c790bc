-- The sandbox's durable state, as first released.
--
-- Bodies are `json`, not `jsonb`: `jsonb` reorders keys, and an object read back must render
-- exactly as it was written. What lists filter on is copied into plain, indexed columns.
-- Times the sandbox itself compares (due times, leases, expiries) are ms since the epoch.
--
-- `IF NOT EXISTS` throughout: databases made by development builds, before schema versions were
-- recorded, already hold some of these tables and are adopted as they are.

-- `seq` is the insertion order: lists are newest first, and a replaced object keeps its seq.
CREATE TABLE IF NOT EXISTS sandbox_objects (
  account_id text NOT NULL,
  kind text NOT NULL,
  id text NOT NULL,
  seq bigserial NOT NULL,
  charge_id text,
  instrument_id text,
  payment_id text,
  status text,
  unsettled boolean NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (account_id, kind, id)
);
CREATE INDEX IF NOT EXISTS sandbox_objects_list ON sandbox_objects (account_id, kind, seq);
CREATE INDEX IF NOT EXISTS sandbox_objects_by_charge
  ON sandbox_objects (account_id, kind, charge_id, seq) WHERE charge_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS sandbox_objects_by_instrument
  ON sandbox_objects (account_id, kind, instrument_id, seq) WHERE instrument_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS sandbox_objects_by_payment
  ON sandbox_objects (account_id, kind, payment_id, seq) WHERE payment_id IS NOT NULL;

-- An event's fixed part is `body`; the fields a delivery or a dismissal changes are columns.
CREATE TABLE IF NOT EXISTS sandbox_events (
  account_id text NOT NULL,
  id text NOT NULL,
  seq bigserial NOT NULL,
  type text NOT NULL,
  charge_id text NOT NULL,
  object_id text NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  metadata jsonb NOT NULL,
  result_status integer NOT NULL,
  retries_log json NOT NULL,
  dismissed_at text,
  delivery_status text NOT NULL,
  next_attempt_at text,
  body json NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX IF NOT EXISTS sandbox_events_list ON sandbox_events (account_id, seq);
CREATE INDEX IF NOT EXISTS sandbox_events_by_charge ON sandbox_events (account_id, charge_id, seq);
CREATE INDEX IF NOT EXISTS sandbox_events_by_object ON sandbox_events (account_id, object_id, seq);
CREATE INDEX IF NOT EXISTS sandbox_events_by_metadata
  ON sandbox_events USING gin (metadata jsonb_path_ops);

-- `action`: what the customer was asked to do. Development databases from before payment
-- methods other than cards lack it, and only hold 3-D Secure pages.
CREATE TABLE IF NOT EXISTS sandbox_challenges (
  instrument_id text PRIMARY KEY,
  account_id text NOT NULL,
  token text NOT NULL
);
ALTER TABLE sandbox_challenges
  ADD COLUMN IF NOT EXISTS action text NOT NULL DEFAULT 'approval_page';

-- Timed work: deliveries and scheduled transitions. `available_at`: when the item may next be
-- claimed: its due time, or while claimed the expiry of its lease. `in_order`: still holding back
-- later work of its `order_key`. `claimed_by`: which process holds the claim (see
-- SqlDatabase.claims).
CREATE TABLE IF NOT EXISTS sandbox_work (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  account_id text NOT NULL,
  payload json NOT NULL,
  due_at bigint NOT NULL,
  available_at bigint NOT NULL,
  order_key text,
  in_order boolean NOT NULL,
  lease text
);
ALTER TABLE sandbox_work ADD COLUMN IF NOT EXISTS claimed_by integer;
CREATE INDEX IF NOT EXISTS sandbox_work_due ON sandbox_work (kind, available_at, id);
CREATE INDEX IF NOT EXISTS sandbox_work_in_order ON sandbox_work (order_key, id) WHERE in_order;

-- `result` is null while the first request with the key is still running (until `lease_until`).
CREATE TABLE IF NOT EXISTS sandbox_idempotency (
  account_id text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  token text NOT NULL,
  result json,
  lease_until bigint NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (account_id, key)
);
CREATE INDEX IF NOT EXISTS sandbox_idempotency_expiry ON sandbox_idempotency (expires_at);
