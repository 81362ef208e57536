-- Checkout counts a buyer's unpaid orders (orders.max_unpaid_per_user) on every order: an index
-- on (user_id, status) makes that a short range count instead of a walk over every order with
-- that status.
CREATE INDEX orders_by_user_status ON orders (user_id, status);
