/* Private to the library (not installed): the one JSON lexer of totex, used by
 * the combining schedule reader (src/combining/import.c, text in memory,
 * scanned in place: tokens are byte spans of the text) and by the unit-step
 * schedule reader (src/schedule/unit_read.c, a FILE* read as a stream through
 * a fixed window, never held whole: tokens carry their decoded value).
 *
 * Two layers:
 *  - jscan, the cursor and tokenizer: the full JSON grammar (RFC 8259) on a
 *    window of the text that is either the whole text in memory or a buffer
 *    refilled from a FILE*. A token cut by the end of the text is J_ERROR
 *    with cut = 1 (a truncated file); malformed text is J_ERROR with `why`.
 *  - jlex, a pull lexer on a FILE* with the unit reader's limits: strings up
 *    to JLEX_STR_MAX bytes (decoded, ASCII), whole numbers 0..2^63-1 or -1,
 *    nesting up to JLEX_MAX_DEPTH in jlex_skip_value(), at most max_bytes
 *    bytes. Errors are TOTEX_EIO naming the byte offset.
 * Memory: a jscan allocates nothing; a jlex holds its window and string
 * buffer (about 12 KiB), whatever the file size. */
#ifndef TOTEX_COMMON_JLEX_H
#define TOTEX_COMMON_JLEX_H

#include <stdint.h>
#include <stdio.h>

#include "totex/common.h"

#define JLEX_STR_MAX 4096
#define JLEX_MAX_DEPTH 32
#define JLEX_WINDOW 8192

typedef enum jkind {
    J_EOF = 0, J_LBRACE, J_RBRACE, J_LBRACKET, J_RBRACKET, J_COLON, J_COMMA,
    J_STRING, J_NUMBER, J_TRUE, J_FALSE, J_NULL, J_ERROR
} jkind;

/* one token: its bytes are [at, at+len) of the text (a string with its quotes) */
typedef struct jtoken {
    jkind kind;
    int whole;           /* J_NUMBER: no fraction and no exponent */
    int neg;             /* J_NUMBER: written with a minus sign */
    int over;            /* J_NUMBER, whole: the magnitude is above 2^63-1 */
    size_t at, len;
    uint64_t mag;        /* J_NUMBER, whole, !over: the magnitude */
} jtoken;

typedef struct jscan {
    const char *buf;  /* the window: text[base .. base+n) */
    size_t n, pos;    /* pos: the cursor within the window */
    uint64_t base;
    FILE *fp;         /* NULL: the window is the whole text */
    char *win;        /* FILE mode: the window's storage, wincap bytes */
    size_t wincap;
    uint64_t limit;   /* FILE mode, non-zero: stop reading once more than limit bytes are read */
    char *str;        /* non-NULL: J_STRING tokens are decoded here (strcap bytes with the NUL) */
    size_t strcap, slen; /* slen: the decoded length, even when cut to fit */
    int cut;          /* J_ERROR (J_EOF with cut_eof): the text ends inside the token */
    int cut_eof;      /* set by the caller: a token cut by the end is J_EOF, not J_ERROR */
    int ioerr;        /* FILE mode: a read error */
    const char *why;  /* J_ERROR: what is malformed */
} jscan;

/** Scan @p len bytes of @p text (borrowed, need not be NUL-terminated) from byte @p pos. */
void jscan_init_mem(jscan *sc, const char *text, size_t len, size_t pos);
/** Scan @p fp (borrowed) through the window @p win of @p wincap >= 1 bytes (borrowed). */
void jscan_init_file(jscan *sc, FILE *fp, char *win, size_t wincap);
/** The next token; J_EOF at the end of the text (also a token cut by the end when
 *  cut_eof is set), J_ERROR (see cut, why) on malformed text. The byte offset past
 *  the token is sc->base + sc->pos. */
jtoken jscan_next(jscan *sc);


typedef struct jlex {
    jscan sc;
    uint64_t offset;    /* bytes consumed */
    uint64_t max_bytes; /* 0: no limit */
    jkind tok;          /* the last token */
    long long num;      /* J_NUMBER value (-1 .. 2^63-1) */
    char str[JLEX_STR_MAX + 1];
    size_t len;         /* J_STRING length */
    char win[JLEX_WINDOW];
    totex_error *err;
} jlex;

/** Start lexing @p fp (borrowed), at most @p max_bytes bytes (0: no limit). */
void jlex_init(jlex *lx, FILE *fp, uint64_t max_bytes, totex_error *err);
/** Next token into lx->tok; TOTEX_EIO with the offset on malformed text or a value out of the limits. */
totex_status jlex_next(jlex *lx);
/** Next token must be @p want (named @p what in the error). */
totex_status jlex_expect(jlex *lx, jkind want, const char *what);
/** Skip one whole value whose first token is the current one (objects and arrays included). */
totex_status jlex_skip_value(jlex *lx);
/** After the top-level value: only whitespace may follow. */
totex_status jlex_end(jlex *lx);
/** Name of a token kind ("'{'", "a string", ...). */
const char *jlex_name(jkind t);

#endif
