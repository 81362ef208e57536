-- An address may name its district by GB/T 2260 code (issue 32): the province, city and district
-- names were filled from the region directory the shop ships. Nullable, so every address typed
-- by hand before (or since) stays valid; the shape is checked here as the last line of defence.
-- PostgreSQL translation of Migrations/sqlite/0031_address_regions.sql.
ALTER TABLE addresses ADD COLUMN region_code TEXT
    CHECK (region_code IS NULL OR region_code ~ '^[0-9]{6}$');
