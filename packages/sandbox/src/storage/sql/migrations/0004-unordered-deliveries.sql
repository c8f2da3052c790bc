-- A charge's deliveries no longer wait for one another, so timed work has no order to keep:
-- work stored while it did is claimed by its due time alone, like all other work.
ALTER TABLE sandbox_work DROP COLUMN IF EXISTS order_key, DROP COLUMN IF EXISTS in_order;
