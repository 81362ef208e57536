#ifndef FLORAL_CLIBPQ_SHIM_H
#define FLORAL_CLIBPQ_SHIM_H
#include <libpq-fe.h>

/* The PG_DIAG_* field codes are character-literal macros Swift does not import. */
static const int shop_pg_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int shop_pg_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int shop_pg_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;

#endif
