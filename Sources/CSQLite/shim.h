#ifndef FLORAL_CSQLITE_SHIM_H
#define FLORAL_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro Swift cannot import: bind through these instead. */
static inline int shop_sqlite3_bind_text(sqlite3_stmt *stmt, int index, const char *text, int bytes) {
    return sqlite3_bind_text(stmt, index, text, bytes, SQLITE_TRANSIENT);
}

static inline int shop_sqlite3_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int bytes) {
    return sqlite3_bind_blob(stmt, index, data, bytes, SQLITE_TRANSIENT);
}

/* Extended result codes are macro expressions Swift cannot import. */
static const int shop_sqlite_constraint_unique = SQLITE_CONSTRAINT_UNIQUE;
static const int shop_sqlite_constraint_primarykey = SQLITE_CONSTRAINT_PRIMARYKEY;
static const int shop_sqlite_constraint_check = SQLITE_CONSTRAINT_CHECK;
static const int shop_sqlite_constraint_foreignkey = SQLITE_CONSTRAINT_FOREIGNKEY;
static const int shop_sqlite_constraint_notnull = SQLITE_CONSTRAINT_NOTNULL;

#endif
