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
/** The window is used up (sc->pos == sc->n): refill it from the file; the next byte, or -1 at the end. */
int jscan_refill(jscan *sc);

/* The next token; J_EOF at the end of the text, J_ERROR (see cut, why) on
 * malformed text. The byte offset past the token is sc->base + sc->pos.
 * Inline, so that the in-memory import scans as fast as with a private lexer
 * (a call per token cost the 46 MB import 20%); the cursor is kept in locals
 * (s, n, p: the window and the position in it) and written back only to refill. */
#define JSCAN_PEEK() \
    (p < n ? (int)(unsigned char)s[p] : (sc->pos = p, r = jscan_refill(sc), s = sc->buf, n = sc->n, p = sc->pos, r))
#define JSCAN_HERE() ((size_t)(sc->base + p))

static inline int jscan_hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static inline int jscan_is_digit(int c) { return c >= '0' && c <= '9'; }

static inline jtoken jscan_next(jscan *sc)
{
    jtoken t = {J_EOF, 0, 0, 0, 0, 0, 0};
    int c, r;
    size_t bad_at;
    const char *s = sc->buf;
    size_t n = sc->n, p = sc->pos;
    char *str = sc->str;
    size_t slen = 0, strcap = sc->strcap;
    while ((c = JSCAN_PEEK()) == ' ' || c == '\t' || c == '\n' || c == '\r')
        p++;
    t.at = JSCAN_HERE();
    sc->cut = 0;
    if (c < 0) {
        if (sc->ioerr) {
            sc->why = "a read error";
            bad_at = t.at;
            goto bad;
        }
        sc->pos = p;
        return t;
    }
    switch (c) {
    case '{': t.kind = J_LBRACE; p++; break;
    case '}': t.kind = J_RBRACE; p++; break;
    case '[': t.kind = J_LBRACKET; p++; break;
    case ']': t.kind = J_RBRACKET; p++; break;
    case ':': t.kind = J_COLON; p++; break;
    case ',': t.kind = J_COMMA; p++; break;
    case '"':
        p++;
        for (;;) {
            bad_at = JSCAN_HERE();
            if ((c = JSCAN_PEEK()) < 0)
                goto cut;
            if (c == '"')
                break;
            if (c < 0x20) {
                sc->why = "a control character inside a string";
                goto bad;
            }
            p++;
            if (c == '\\') {
                bad_at = JSCAN_HERE();
                if ((c = JSCAN_PEEK()) < 0)
                    goto cut;
                switch (c) {
                case '"': case '\\': case '/': break;
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'n': c = '\n'; break;
                case 'r': c = '\r'; break;
                case 't': c = '\t'; break;
                case 'u': {
                    int v = 0;
                    p++;
                    for (int i = 0; i < 4; i++, p++) {
                        int d = JSCAN_PEEK();
                        if (d < 0)
                            goto cut;
                        if (jscan_hexval(d) < 0) {
                            sc->why = "a bad \\u escape";
                            goto bad;
                        }
                        v = v * 16 + jscan_hexval(d);
                    }
                    p--; /* the last hex digit is consumed below */
                    c = v < 0x80 && v > 0 ? v : '?'; /* decoded strings are ASCII (the unit reader's keys and values) */
                    break;
                }
                default:
                    sc->why = "a bad escape in a string";
                    goto bad;
                }
                p++;
            }
            if (str && slen + 1 < strcap)
                str[slen] = (char)c;
            slen++;
        }
        p++;
        if (str)
            str[slen < strcap ? slen : strcap - 1] = '\0';
        sc->slen = slen;
        t.kind = J_STRING;
        break;
    case 't':
    case 'f':
    case 'n': {
        const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        bad_at = t.at;
        for (const char *w = word; *w; w++, p++) {
            int d = JSCAN_PEEK();
            if (d < 0)
                goto cut;
            if (d != *w) {
                sc->why = "an unexpected word";
                goto bad;
            }
        }
        t.kind = c == 't' ? J_TRUE : c == 'f' ? J_FALSE : J_NULL;
        break;
    }
    default:
        bad_at = t.at;
        if (c != '-' && !jscan_is_digit(c)) {
            sc->why = "an unexpected character";
            goto bad;
        }
        t.whole = 1;
        uint64_t mag = 0;
        int over = 0;
        t.neg = c == '-';
        if (t.neg) {
            p++;
            bad_at = JSCAN_HERE();
            if ((c = JSCAN_PEEK()) < 0)
                goto cut;
        }
        if (c == '0') {
            p++;
            if (jscan_is_digit(JSCAN_PEEK())) {
                bad_at = JSCAN_HERE();
                sc->why = "a malformed number (leading zero)";
                goto bad;
            }
        } else if (jscan_is_digit(c)) {
            for (; jscan_is_digit(c); p++, c = JSCAN_PEEK()) {
                unsigned d = (unsigned)(c - '0');
                /* 2^63-1 = 922337203685477580 * 10 + 7 */
                if (mag < UINT64_C(922337203685477580) || (mag == UINT64_C(922337203685477580) && d <= 7))
                    mag = mag * 10 + d;
                else
                    over = 1;
            }
        } else {
            sc->why = "a malformed number";
            goto bad;
        }
        if ((c = JSCAN_PEEK()) == '.') {
            t.whole = 0;
            p++;
            bad_at = JSCAN_HERE();
            if ((c = JSCAN_PEEK()) < 0)
                goto cut;
            if (!jscan_is_digit(c)) {
                sc->why = "a malformed number";
                goto bad;
            }
            while (jscan_is_digit(JSCAN_PEEK()))
                p++;
            c = JSCAN_PEEK();
        }
        if (c == 'e' || c == 'E') {
            t.whole = 0;
            p++;
            if ((c = JSCAN_PEEK()) == '+' || c == '-') {
                p++;
                c = JSCAN_PEEK();
            }
            bad_at = JSCAN_HERE();
            if (c < 0)
                goto cut;
            if (!jscan_is_digit(c)) {
                sc->why = "a malformed number";
                goto bad;
            }
            while (jscan_is_digit(JSCAN_PEEK()))
                p++;
        }
        t.mag = mag;
        t.over = over;
        t.kind = J_NUMBER;
        break;
    }
    t.len = JSCAN_HERE() - t.at;
    sc->pos = p;
    return t;
cut:
    sc->pos = p;
    t.kind = sc->cut_eof ? J_EOF : J_ERROR;
    sc->cut = 1;
    sc->why = "the text ends inside a token (truncated?)";
    return t;
bad:
    sc->pos = p;
    t.kind = J_ERROR;
    t.at = bad_at;
    return t;
}

#undef JSCAN_PEEK
#undef JSCAN_HERE


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
