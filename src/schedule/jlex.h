/* Private to src/schedule/: a small pull lexer for JSON read from a FILE*,
 * one token at a time, so that a schedule file is checked as it is read and
 * never held whole in memory (the unit-step schedule reader). Strings longer
 * than JLEX_STR_MAX bytes, numbers that are not whole numbers in 0..2^63-1
 * (or -1), nesting deeper than JLEX_MAX_DEPTH and files longer than the
 * caller's limit are errors naming the byte offset. */
#ifndef TOTEX_JLEX_H
#define TOTEX_JLEX_H

#include <stdio.h>

#include "totex/common.h"

#define JLEX_STR_MAX 4096
#define JLEX_MAX_DEPTH 32

typedef enum jtok {
    J_EOF = 0, J_LBRACE, J_RBRACE, J_LBRACKET, J_RBRACKET, J_COLON, J_COMMA,
    J_STRING, J_INT, J_TRUE, J_FALSE, J_NULL
} jtok;

typedef struct jlex {
    FILE *fp;
    uint64_t offset;    /* bytes consumed */
    uint64_t max_bytes; /* 0: no limit */
    int peeked;         /* -2: none */
    jtok tok;           /* the last token */
    long long num;      /* J_INT value (-1 .. 2^63-1) */
    char str[JLEX_STR_MAX + 1];
    size_t len;         /* J_STRING length */
    totex_error *err;
} jlex;

/** Start lexing @p fp (borrowed). */
void jlex_init(jlex *lx, FILE *fp, uint64_t max_bytes, totex_error *err);
/** Next token into lx->tok; TOTEX_EIO with the offset on malformed text. */
totex_status jlex_next(jlex *lx);
/** Next token must be @p want (named @p what in the error). */
totex_status jlex_expect(jlex *lx, jtok want, const char *what);
/** Skip one whole value whose first token is the current one (objects and arrays included). */
totex_status jlex_skip_value(jlex *lx);
/** After the top-level value: only whitespace may follow. */
totex_status jlex_end(jlex *lx);
/** Name of a token kind ("'{'", "a string", ...). */
const char *jlex_name(jtok t);

#endif
