/**
 * @file totex/common.h
 * @brief Status codes, error messages and port models shared by every totex module.
 *
 * Every library function that can fail returns a ::totex_status and, when it
 * is given a non-NULL ::totex_error, fills it with one human-readable line
 * naming what is wrong and how to fix it. The library never calls exit() or
 * abort().
 */
#ifndef TOTEX_COMMON_H
#define TOTEX_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Result of a totex call. */
typedef enum totex_status {
    TOTEX_OK = 0,             /**< success */
    TOTEX_EINVAL = 1,         /**< malformed or out-of-range input (spec, size, option) */
    TOTEX_ENOMEM = 2,         /**< an allocation failed or would exceed a documented limit */
    TOTEX_EIO = 3,            /**< a file could not be read or parsed */
    TOTEX_EOVERFLOW = 4,      /**< a count would not fit its integer type (n^2 messages, ids) */
    TOTEX_ENOTAPPLICABLE = 5, /**< the algorithm does not apply to this network / port model */
    TOTEX_EVIOLATION = 6      /**< the simulator rejected a schedule */
} totex_status;

/** Error message buffer filled by failing calls (one line, NUL-terminated). */
typedef struct totex_error {
    char msg[512];
} totex_error;

/**
 * Port model of store-and-forward total exchange (000 Section 1; 001 Section 7).
 *
 * - TOTEX_PORTS_SINGLE: in one step a node sends at most one message and
 *   receives at most one message (000 Section 3, bound (3)).
 * - TOTEX_PORTS_MULTI: in one step every directed link carries at most one
 *   message; a node uses all its links at once (000 Section 3, bound (4); 003 Section 2).
 */
typedef enum totex_ports {
    TOTEX_PORTS_SINGLE = 0,
    TOTEX_PORTS_MULTI = 1
} totex_ports;

/** Name of a port model: "single-port" or "multiport". Never NULL. */
const char *totex_ports_name(totex_ports ports);

/**
 * Parse "single" / "single-port" / "multi" / "multiport" into @p out.
 * @return TOTEX_OK, or TOTEX_EINVAL with a message listing the valid names.
 */
totex_status totex_ports_parse(const char *text, totex_ports *out, totex_error *err);

/** Short name of a status code ("ok", "invalid input", ...). Never NULL. */
const char *totex_status_name(totex_status st);

#ifdef __cplusplus
}
#endif
#endif
