-- Staff rename, move and delete categories (/admin/categories, `shop categories …`). A search's
-- counts are cached per catalog_version (0008, 0013), and which products a query finds by a
-- category's name (the named-category tiers of ProductSearch) moves with a category's name and
-- place, so catalog_version moves with them too; until now only a new category moved it.
CREATE TRIGGER catalog_version_on_category_update AFTER UPDATE OF name, parent_id, path ON categories
WHEN OLD.name IS NOT NEW.name OR OLD.parent_id IS NOT NEW.parent_id OR OLD.path IS NOT NEW.path
BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER catalog_version_on_category_delete AFTER DELETE ON categories BEGIN
    UPDATE catalog_version SET version = version + 1 WHERE id = 1;
END;
