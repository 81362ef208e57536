#ifndef FLORAL_CSQLITEGRAMS_H
#define FLORAL_CSQLITEGRAMS_H

struct sqlite3;

/* Registers the FTS5 tokenizer `shop_grams` on this connection (see grams.c). Answers an SQLite
 * result code: SQLITE_OK (0), or an error when this SQLite has no FTS5. */
int shop_sqlite3_register_grams(struct sqlite3 *db);

#endif
