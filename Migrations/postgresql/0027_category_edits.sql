-- Staff rename, move and delete categories (/admin/categories, `shop categories …`). A search's
-- counts are cached per catalog_version (0008, 0013), and which products a query finds by a
-- category's name (the named-category tiers of ProductSearch) moves with a category's name and
-- place, so catalog_version moves with them too; until now only a new category moved it.
-- PostgreSQL translation of Migrations/sqlite/0027_category_edits.sql (catalog_version_bump is 0008's).
CREATE TRIGGER catalog_version_on_category_update AFTER UPDATE OF name, parent_id, path ON categories
    FOR EACH ROW
    WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.parent_id IS DISTINCT FROM NEW.parent_id OR OLD.path IS DISTINCT FROM NEW.path)
    EXECUTE FUNCTION catalog_version_bump();

CREATE TRIGGER catalog_version_on_category_delete AFTER DELETE ON categories
    FOR EACH ROW EXECUTE FUNCTION catalog_version_bump();
