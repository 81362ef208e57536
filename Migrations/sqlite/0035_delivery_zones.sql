-- Delivery zones (issue 32): the areas the shop delivers to, each with its fee, the goods' amount
-- from which delivery is free, and whether it takes same-day orders. A zone lists cities or
-- districts by GB/T 2260 code; the whole set is replaced at once (PUT /admin/delivery/zones,
-- `shop zones import`). A code belongs to at most one zone: the service refuses overlaps (a city
-- in one zone and one of its districts in another too), and the primary key below is the last
-- line of defence against the same code twice. No zones at all: every address is served free.
CREATE TABLE delivery_zones (
    id INTEGER PRIMARY KEY,
    ordinal INTEGER NOT NULL UNIQUE,
    name TEXT NOT NULL UNIQUE,
    fee_cents INTEGER NOT NULL CHECK (fee_cents >= 0),
    free_over_cents INTEGER CHECK (free_over_cents IS NULL OR free_over_cents >= 0),
    same_day INTEGER NOT NULL CHECK (same_day IN (0, 1)),
    created_at INTEGER NOT NULL
);

CREATE TABLE delivery_zone_regions (
    region_code TEXT PRIMARY KEY
        CHECK (length(region_code) = 6 AND region_code NOT GLOB '*[^0-9]*'),
    zone_id INTEGER NOT NULL REFERENCES delivery_zones (id) ON DELETE CASCADE
);
CREATE INDEX delivery_zone_regions_by_zone ON delivery_zone_regions (zone_id);
