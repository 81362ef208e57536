/*
 * `shop_grams`: an FTS5 tokenizer that makes every substring of one character or more findable,
 * which the built-in trigram tokenizer cannot do below three characters (most Chinese words).
 *
 * Documents: at every character (Unicode code point) it emits the character, then, at the same
 * position (FTS5_TOKEN_COLOCATED), the two- and three-character strings starting there.
 * Queries: one character is looked up as that character, two as that pair, three or more as the
 * phrase of their overlapping trigrams, which FTS5 matches at consecutive positions; so a query
 * matches exactly the documents that contain it as a substring.
 *
 * Case: ASCII letters fold to lower case (the shop's search folding, SearchText.fold; SQLite's
 * lower() and PostgreSQL's search_fold() do the same), everything else is compared as is.
 */
#include <sqlite3.h>
#include "CSQLiteGrams.h"

static int gramsCreate(void *context, const char **arguments, int count, Fts5Tokenizer **out) {
    (void)context;
    (void)arguments;
    (void)count;
    /* Stateless: any non-null pointer will do, and FTS5 hands it back to gramsDelete. */
    *out = (Fts5Tokenizer *)sqlite3_malloc(1);
    return *out ? SQLITE_OK : SQLITE_NOMEM;
}

static void gramsDelete(Fts5Tokenizer *tokenizer) {
    sqlite3_free(tokenizer);
}

enum { stackBytes = 512, stackCharacters = 256 };

static int gramsTokenize(Fts5Tokenizer *tokenizer, void *context, int flags, const char *text, int bytes,
                         int (*token)(void *, int, const char *, int, int, int)) {
    (void)tokenizer;
    if (bytes <= 0) return SQLITE_OK;

    char stackText[stackBytes];
    int stackStarts[stackCharacters + 1];
    char *folded = bytes <= stackBytes ? stackText : sqlite3_malloc(bytes);
    if (!folded) return SQLITE_NOMEM;

    /* Fold ASCII letters (byte lengths do not change) and count the characters: every byte that
     * is not a UTF-8 continuation byte starts one. */
    int characters = 0;
    for (int i = 0; i < bytes; i++) {
        unsigned char byte = (unsigned char)text[i];
        folded[i] = (byte >= 'A' && byte <= 'Z') ? (char)(byte + ('a' - 'A')) : (char)byte;
        if ((byte & 0xC0) != 0x80) characters++;
    }
    if (characters == 0) {
        if (folded != stackText) sqlite3_free(folded);
        return SQLITE_OK;
    }
    int *starts = characters <= stackCharacters ? stackStarts : sqlite3_malloc64((sqlite3_uint64)(characters + 1) * sizeof(int));
    if (!starts) {
        if (folded != stackText) sqlite3_free(folded);
        return SQLITE_NOMEM;
    }
    int index = 0;
    for (int i = 0; i < bytes; i++) {
        if ((((unsigned char)text[i]) & 0xC0) != 0x80) starts[index++] = i;
    }
    starts[characters] = bytes;
    /* (Text that begins with a stray continuation byte: those bytes belong to no character.) */

    int rc = SQLITE_OK;
    if (flags & FTS5_TOKENIZE_QUERY) {
        int width = characters < 3 ? characters : 3;
        for (int i = 0; rc == SQLITE_OK && i + width <= characters; i++) {
            rc = token(context, 0, folded + starts[i], starts[i + width] - starts[i], starts[i], starts[i + width]);
        }
    } else {
        for (int i = 0; rc == SQLITE_OK && i < characters; i++) {
            for (int width = 1; rc == SQLITE_OK && width <= 3 && i + width <= characters; width++) {
                rc = token(context, width == 1 ? 0 : FTS5_TOKEN_COLOCATED, folded + starts[i],
                           starts[i + width] - starts[i], starts[i], starts[i + width]);
            }
        }
    }

    if (starts != stackStarts) sqlite3_free(starts);
    if (folded != stackText) sqlite3_free(folded);
    return rc;
}

int shop_sqlite3_register_grams(struct sqlite3 *db) {
    fts5_api *api = 0;
    sqlite3_stmt *statement = 0;
    int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0);
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
    rc = sqlite3_finalize(statement);
    if (rc != SQLITE_OK) return rc;
    if (!api || api->iVersion < 2) return SQLITE_ERROR;
    static fts5_tokenizer tokenizer = { gramsCreate, gramsDelete, gramsTokenize };
    return api->xCreateTokenizer(api, "shop_grams", 0, &tokenizer, 0);
}
