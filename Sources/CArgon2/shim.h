#ifndef FLORAL_CARGON2_SHIM_H
#define FLORAL_CARGON2_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <argon2.h>
#endif
