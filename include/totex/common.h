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
 * A totex_ports value is the number k of links a node may use in one step:
 * - TOTEX_PORTS_SINGLE (k = 1): single-port, a node sends at most one and
 *   receives at most one message per step (000 Section 3, bound (3));
 * - k >= 2: k-port, a node sends on at most k links and receives on at most k
 *   links per step, one message per directed link (001 Section 7, Theorem 7);
 * - TOTEX_PORTS_MULTI (0): multiport, every directed link carries at most one
 *   message per step and a node uses all its links at once (000 Section 3,
 *   bound (4); 003 Section 2). k-port with k >= the degree is multiport.
 */
typedef uint32_t totex_ports;
#define TOTEX_PORTS_MULTI ((totex_ports)0)
#define TOTEX_PORTS_SINGLE ((totex_ports)1)
/** Largest k accepted for k-port. */
#define TOTEX_PORTS_MAX_K 4096u
/** The k-port model, 1 <= k <= TOTEX_PORTS_MAX_K (k = 1 is TOTEX_PORTS_SINGLE). */
#define TOTEX_PORTS_K(k) ((totex_ports)(k))

/** k of a k-port model: 1 for single-port, 0 (unlimited) for multiport. */
static inline uint32_t totex_ports_k(totex_ports ports) { return ports; }

/**
 * Name of a port model's family.
 * @param ports a port model.
 * @return "single-port", "multiport" or "k-port" (any k >= 2); static, never NULL.
 */
const char *totex_ports_name(totex_ports ports);

/**
 * A model's full name, in the unit-step papers' words: totex_ports_format_words() with TOTEX_PORTS_WORDS_UNIT.
 * @param ports a port model. @param buf receives "single-port", "multiport" or "3-port", cut to fit.
 * @param len the size of @p buf in bytes (at least 12 holds every name).
 * @return @p buf.
 */
char *totex_ports_format(totex_ports ports, char *buf, size_t len);

/** The words that name a port model: the unit-step papers' (000, 001) or the combining paper's (002). */
typedef enum totex_ports_words {
    TOTEX_PORTS_WORDS_UNIT = 0,     /**< "single-port", "multiport", "3-port" (totex_ports_format()) */
    TOTEX_PORTS_WORDS_COMBINING = 1 /**< 002 Section 2: "one-port" (single-port), "all-port" (multiport) */
} totex_ports_words;

/**
 * Write the name of @p ports in @p words into @p buf (size @p len): the one
 * function that names a port model (totex_ports_format() is its unit-step
 * form).
 * @param ports a port model. @param words whose words (TOTEX_PORTS_WORDS_UNIT or _COMBINING).
 * @param buf receives the name, cut to fit (snprintf). @param len the size of @p buf in bytes.
 * @return @p buf.
 */
char *totex_ports_format_words(totex_ports ports, totex_ports_words words, char *buf, size_t len);

/**
 * Parse "single" / "single-port" / "one" / "one-port" / "multi" / "multiport"
 * / "all" / "all-port" / "k:N" / "N-port" (1 <= N <= TOTEX_PORTS_MAX_K; k:1 is
 * single-port) into @p out.
 * @param text the words (NULL: TOTEX_EINVAL). @param out receives the model on TOTEX_OK.
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK, or TOTEX_EINVAL with a message listing the valid forms.
 */
totex_status totex_ports_parse(const char *text, totex_ports *out, totex_error *err);

/**
 * Short name of a status code.
 * @param st a status.
 * @return "ok", "invalid input", ... ("unknown status" for a value not in totex_status); static, never NULL.
 */
const char *totex_status_name(totex_status st);

#ifdef __cplusplus
}
#endif
#endif
