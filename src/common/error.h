/* Internal helpers shared by all modules (not installed). */
#ifndef TOTEX_INTERNAL_ERROR_H
#define TOTEX_INTERNAL_ERROR_H

#include "totex/common.h"

/** Fill @p err (if non-NULL) with a printf-style message and return @p st. */
totex_status totex_fail(totex_error *err, totex_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
